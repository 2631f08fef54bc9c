"""torch-cubic-spline-grids before PR #13: the B-spline interpolation matrix is a plain tensor attribute, so `grid.to(device)` leaves it on the CPU.

Source: https://github.com/teamtomo/torch-cubic-spline-grids/pull/13
"Ensure that interpolation matrix is pushed to device with model": the grid module kept the constant
cubic B-spline matrix as `self.interpolation_matrix = CUBIC_B_SPLINE_MATRIX`; after moving the module to
the GPU the control points are on cuda and the matrix is not, and interpolation fails. The PR registers
it as a buffer. Stand-in: a 1D CubicBSplineGrid (edge-padded control points gathered by index_select).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

CUBIC_B_SPLINE_MATRIX = torch.tensor([[-1, 3, -3, 1],
                                      [3, -6, 3, 0],
                                      [-3, 0, 3, 0],
                                      [1, 4, 1, 0]], dtype=torch.float32) / 6

class CubicBSplineGrid1d(nn.Module):
    def __init__(self, resolution=6, n_channels=1):
        super().__init__()
        self.data = nn.Parameter(torch.zeros(n_channels, resolution))
        self.interpolation_matrix = CUBIC_B_SPLINE_MATRIX

    def forward(self, u):
        n = self.data.shape[-1]
        padded = torch.cat([self.data.narrow(-1, 0, 1), self.data, self.data.narrow(-1, n - 1, 1),
                            self.data.narrow(-1, n - 1, 1)], dim=-1)          # (c, n + 3)
        s = u * (n - 1)
        idx = torch.clamp(torch.floor(s), 0, n - 2).long()
        t = s - idx
        cps = torch.stack([torch.index_select(padded, -1, idx + o) for o in range(4)], dim=-1)   # (c, b, 4)
        tt = torch.stack([t ** 3, t ** 2, t, torch.ones_like(t)], dim=-1)                         # (b, 4)
        weights = tt @ self.interpolation_matrix                                                   # (b, 4)
        return (cps * weights).sum(-1).permute(1, 0)

device = torch.device("cuda:0")
grid = CubicBSplineGrid1d(resolution=6).to(device)
u = torch.rand(100).to(device)
'''
CELL = '''
with torch.no_grad():
    values = grid(u)
'''
EXPECT_ERROR = ('Expected all tensors to be on the same device',)
CULPRITS = ['grid.interpolation_matrix']
FIX = "namespace"
REFERENCE_FIX = '''
grid.interpolation_matrix = grid.interpolation_matrix.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
