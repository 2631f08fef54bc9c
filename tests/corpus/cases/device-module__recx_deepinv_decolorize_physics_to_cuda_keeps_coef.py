"""deepinv physics moved with `physics.to("cuda")`: the colorize coefficients are a plain tensor attribute and stay on the CPU.

Source: https://github.com/deepinv/deepinv/issues/460
"Moving physics between devices": jscanvic built each physics, moved it with `.to()` and applied it
to an `x` on the other device; for `colorize`, `demosaicing`, `fftdeblur`... it failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
The operators keep their tensors as plain attributes, which `Module.to()` does not move; the
thread's remedy is registering them as buffers (or building the physics with `device=`). Stand-in:
deepinv's `Decolorize` with its RGB weights held in a plain attribute.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

class LinearPhysics(torch.nn.Module):
    def forward(self, x):
        return self.A(x)

class Decolorize(LinearPhysics):
    def __init__(self, device="cpu"):
        super().__init__()
        self.coef = torch.tensor([0.4472, 0.8781, 0.1706], device=device)

    def A(self, x):
        y = x * self.coef[None, :, None, None]
        return y.sum(dim=1, keepdim=True)

    def A_adjoint(self, y):
        return y * self.coef[None, :, None, None]

physics = Decolorize()
device = "cuda:0"
x = torch.rand(1, 3, 32, 32).to(device)
physics = physics.to(device)
'''
CELL = '''
y = physics(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["physics.coef"]
FIX = "namespace"
REFERENCE_FIX = '''
physics.coef = physics.coef.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
