"""se3cnn point `Convolution` called on cuda features and geometry while the convolution module stayed on the CPU.

Source: https://github.com/mariogeiger/se3cnn/issues/27
"convolution yields runtime error when input is on cuda": the user built
`c = C([(1, 0)], [(1, 0), (1, 1)])` (a `Convolution` with a `Kernel` whose radial model is a
`CosineBasisModel` MLP), moved only the inputs (`ff = torch.ones(1, 4, 1).cuda()`,
`gg = torch.rand(1, 4, 3).cuda()`) and called `c(ff, gg)`; the radial MLP weights are still on the CPU.
Moving the module (`c.cuda()`) fixes it. Stand-in: the convolution computing relative positions, a
cosine radial basis, the radial MLP and the (l=0 -> l=0,1) kernel contraction.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import math
import torch
from torch import nn

class CosineBasisModel(nn.Module):
    def __init__(self, out_dim, max_radius=3.0, number_of_basis=25, h=50):
        super().__init__()
        self.max_radius, self.number_of_basis = max_radius, number_of_basis
        self.f = nn.Sequential(nn.Linear(number_of_basis, h), nn.Sigmoid(), nn.Linear(h, out_dim))

    def forward(self, r):
        centers = torch.linspace(0, self.max_radius, self.number_of_basis, device=r.device)
        step = centers[1] - centers[0]
        x = torch.cos(math.pi / 2 * (r.unsqueeze(-1) - centers) / step).clamp(min=0) ** 2
        return self.f(x)

class Convolution(nn.Module):
    def __init__(self, Rs_in, Rs_out):
        super().__init__()
        self.dim_out = sum(mul * (2 * l + 1) for mul, l in Rs_out)
        self.radial = CosineBasisModel(self.dim_out)

    def forward(self, features, geometry):
        rb = geometry.unsqueeze(1)
        ra = geometry.unsqueeze(2)
        r = (rb - ra).norm(dim=-1)
        k = self.radial(r)                                  # [batch, a, b, dim_out]
        return torch.einsum("zabi,zbj->zai", k, features)

C = Convolution
c = C([(1, 0)], [(1, 0), (1, 1)])
ff = torch.ones(1, 4, 1).to("cuda:0")
gg = torch.rand(1, 4, 3).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    out = c(ff, gg)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["c"]
FIX = "namespace"
REFERENCE_FIX = '''
c = c.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
