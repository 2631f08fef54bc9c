"""pymlg SE(3) `Exp` with torch on cuda: `wedge` builds its padding row with `torch.tensor(...)` on the CPU.

Source: https://github.com/decargroup/pymlg/issues/24
"SE(3) Exp Torch only working with cpu not with cuda": calling `SE3.Exp(xi)` with `xi` on cuda fails
because `wedge` creates `b1 = torch.tensor([0, 0, 0, 0], dtype=xi.dtype).reshape(1, 1, 4)` without a
device and concatenates it with cuda blocks; the reporter's fix adds `device=xi.device` (same for
`torch.eye(3, 3)` in `left_jacobian`). Stand-in: `SO3.wedge` and `SE3.wedge`/`Exp` as in pymlg's torch
backend, `matrix_exp` for the exponential.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class SO3:
    @staticmethod
    def wedge(phi):
        phi = phi.reshape(-1, 3)
        zero = torch.zeros_like(phi[:, 0])
        row0 = torch.stack([zero, -phi[:, 2], phi[:, 1]], dim=1)
        row1 = torch.stack([phi[:, 2], zero, -phi[:, 0]], dim=1)
        row2 = torch.stack([-phi[:, 1], phi[:, 0], zero], dim=1)
        return torch.stack([row0, row1, row2], dim=1)

class SE3:
    @staticmethod
    def wedge(xi):
        xi = xi.reshape(-1, 6)
        phi, rho = xi[:, 0:3], xi[:, 3:6]
        Xi_phi = SO3.wedge(phi)
        top = torch.cat([Xi_phi, rho.unsqueeze(2)], dim=2)
        b1 = torch.tensor([0, 0, 0, 0], dtype=xi.dtype).reshape(1, 1, 4)
        b1 = b1.expand(xi.shape[0], 1, 4)
        return torch.cat([top, b1], dim=1)

    @staticmethod
    def Exp(xi):
        return torch.matrix_exp(SE3.wedge(xi))

xi = torch.randn(8, 6, 1).to("cuda:0")
'''
CELL = '''
T = SE3.Exp(xi)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["b1"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor([0, 0, 0, 0], dtype=xi.dtype)", "torch.tensor([0, 0, 0, 0], dtype=xi.dtype, device=xi.device)")
CLEAN = False
