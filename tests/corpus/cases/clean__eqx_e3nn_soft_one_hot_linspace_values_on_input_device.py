"""Look-alike: e3nn's `soft_one_hot_linspace` radial embedding creates its basis centres inside the function, on the input's device.

Source: https://github.com/e3nn/e3nn/blob/main/e3nn/math/_soft_one_hot_linspace.py
The function builds `values = torch.linspace(start, end, number, dtype=x.dtype, device=x.device)` on each
call, so a radial embedding of cuda edge lengths followed by a `FullyConnectedNet`-style radial MLP on cuda
is consistent even though no basis tensor is stored on the module. The smooth-cutoff `sus` helper and
`o3.spherical_harmonics`-like l=1 part likewise derive everything from `x`. Stand-in: those helpers and an
edge-feature block moved to the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def sus(x):
    return torch.where(x > 0.0, torch.exp(-1.0 / x.clamp(min=1e-9)), torch.zeros_like(x))

def soft_one_hot_linspace(x, start, end, number, basis="smooth_finite", cutoff=True):
    values = torch.linspace(start, end, number + 2, dtype=x.dtype, device=x.device)
    step = values[1] - values[0]
    values = values[1:-1]
    diff = (x[..., None] - values) / step
    return 1.14136 * math.exp(2) * sus(diff + 1) * sus(1 - diff)

def spherical_harmonics_l1(vec):
    return math.sqrt(3) * vec / vec.norm(dim=-1, keepdim=True).clamp(min=1e-9)

class EdgeBlock(nn.Module):
    def __init__(self, number_of_basis=10, max_radius=2.5, hidden=16):
        super().__init__()
        self.number_of_basis, self.max_radius = number_of_basis, max_radius
        self.fc = nn.Sequential(nn.Linear(number_of_basis, hidden), nn.SiLU(), nn.Linear(hidden, 3))
    def forward(self, edge_vec):
        edge_length = edge_vec.norm(dim=1)
        emb = soft_one_hot_linspace(edge_length, 0.0, self.max_radius, self.number_of_basis) * self.number_of_basis ** 0.5
        return self.fc(emb) * spherical_harmonics_l1(edge_vec)

block = EdgeBlock().to("cuda:0")
edge_vec = torch.randn(12, 3).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    edge_feats = block(edge_vec)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
