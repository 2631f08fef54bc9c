"""caustics: the lens-equation Jacobian on the GPU is `torch.eye(2) - J.detach()`, with `torch.eye(2)` made on the CPU.

Source: https://github.com/Ciela-Institute/caustics/pull/156
The user computed the Jacobian of an SIE lens on a CUDA grid to plot the critical line
(`thx, thy` from `get_meshgrid(..., device=DEVICE)`, `z_s` and the packed parameters `x_sie` on the
device). `jacobian_lens_equation` builds `J` with the autograd Jacobian of the deflection angle (on
the device, like its inputs) and returns `torch.eye(2) - J.detach()`: "Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu!". The PR's fix creates the identity
on J's device. Stand-ins: the SIE deflection reduced to a softened isothermal profile, its Jacobian
taken with torch.func (vmap over the grid of jacfwd), the cosmology left out; the GPU is simulated by
meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch.func import jacfwd, vmap

DEVICE = torch.device("meta")         # the GPU, simulated with meta

class SIE:
    def __init__(self, name):
        self.name = name

    def reduced_deflection_angle(self, x, y, z_s, params):
        z_l, x0, y0, q, phi, b = params
        dx, dy = x - x0, y - y0
        r = torch.sqrt(q * dx ** 2 + dy ** 2 / q + 1e-6)
        return torch.stack([b * dx / r, b * dy / r])

    def _jacobian_deflection_angle_autograd(self, x, y, z_s, params):
        f = lambda xy: self.reduced_deflection_angle(xy[0], xy[1], z_s, params)
        J = vmap(jacfwd(f))(torch.stack([x.flatten(), y.flatten()], -1))
        return J.reshape(*x.shape, 2, 2)

    def jacobian_lens_equation(self, x, y, z_s, params):
        # Build Jacobian
        J = self._jacobian_deflection_angle_autograd(x, y, z_s, params)
        return torch.eye(2) - J.detach()

n_pix, res, upsample_factor = 8, 0.05, 2
grid = torch.linspace(-0.2, 0.2, upsample_factor * n_pix).to(DEVICE)
thx, thy = torch.meshgrid(grid, grid, indexing="xy")
z_l = torch.tensor(0.5, dtype=torch.float32, device=DEVICE)
z_s = torch.tensor(1.5, dtype=torch.float32, device=DEVICE)
sie = SIE(name="sie")
x_sie = torch.tensor([0.5, 0.2, 0.2, 0.4, 3.1415 / 5, 0.5]).to(DEVICE)
'''
CELL = '''
A = sie.jacobian_lens_equation(thx, thy, z_s, x_sie)
detA = torch.linalg.det(A)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["sie"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.eye(2) - J.detach()", "return torch.eye(2, device=J.device, dtype=J.dtype) - J.detach()")
CLEAN = False
