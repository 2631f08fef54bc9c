"""torch-cubic-spline-grids after the fix: the cubic B-spline interpolation matrix is a registered buffer and the grid module is moved with `.to(device)`.

Source: https://github.com/teamtomo/torch-cubic-spline-grids/pull/14
Look-alike: a constant (4, 4) matrix made on the CPU at import time and used in forward with cuda
control points, but registered (`register_buffer('interpolation_matrix', ...)`) and read back from the
buffer (PR #14: "use the matrix which has been registered as a buffer"). Stand-in: a 1D CubicBSplineGrid
with the 4 control points of each sample gathered by index_select (edge-padded grid).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        self.register_buffer("interpolation_matrix", CUBIC_B_SPLINE_MATRIX)

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
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
