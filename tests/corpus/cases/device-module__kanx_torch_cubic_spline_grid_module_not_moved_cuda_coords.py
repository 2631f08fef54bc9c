"""torch-cubic-spline-grids: a CubicBSplineGrid created on the CPU is called with cuda coordinates; the module itself was never moved.

Source: https://github.com/teamtomo/torch-cubic-spline-grids/issues/26
"How to select device?": `m = CubicBSplineGrid3d(resolution=(6, 10, 10)); m(t.rand(50, 3, device='cuda'))`
failed ("indices should be either on cpu or on the same device as the indexed tensor (cpu)"). The
maintainer: call `m.to(device)` before using it; the user confirmed it works. Stand-in: a 1D grid with the
fixed (buffer) matrix; the gather is written with index_select, so the simulated failure is the next op.
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

m = CubicBSplineGrid1d(resolution=10)
'''
CELL = '''
with torch.no_grad():
    out = m(torch.rand(50, device="cuda:0"))
'''
EXPECT_ERROR = ('Expected all tensors to be on the same device', 'indices should be either on cpu')
CULPRITS = ['m']
FIX = "namespace"
REFERENCE_FIX = '''
m = m.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
