"""deepinv BlurFFT moved with `.cuda()`: its `angle` phase tensor is a plain attribute and stays on the CPU.

Source: https://github.com/deepinv/deepinv/issues/383
The reporter built `phy = BlurFFT((15, 15), h)` on the CPU, ran it once, then moved both the image
and the operator (`x = x.cuda(); phy = phy.cuda()`); the second `phy(x)` failed with a cpu/cuda
mismatch. `update_parameters` registers `filter` and `mask` as Parameters but stores the FFT phase
as a plain tensor attribute, `self.angle = torch.exp(-1.0j * self.angle)`, which `Module.cuda()`
never sees. The patch in the report wraps `angle` in a `torch.nn.Parameter(..., requires_grad=False)`.
Stand-ins: deepinv's `Physics` / `DecomposablePhysics` / `BlurFFT` (forward = U(mask * V_adjoint(x)))
and `filter_fft_2d`, reduced to what the forward pass uses.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import fft, nn

def filter_fft_2d(filter, img_size, real_fft=True):
    ph = int((filter.shape[-2] - 1) / 2)
    pw = int((filter.shape[-1] - 1) / 2)
    filt2 = torch.zeros(tuple(filter.shape[:2]) + tuple(img_size[-2:]), device=filter.device)
    filt2[..., : filter.shape[-2], : filter.shape[-1]] = filter
    filt2 = torch.roll(filt2, shifts=(-ph, -pw), dims=(-2, -1))
    return fft.rfft2(filt2) if real_fft else fft.fft2(filt2)

class Physics(nn.Module):
    def forward(self, x, **kwargs):
        return self.A(x, **kwargs)

class DecomposablePhysics(Physics):
    def A(self, x, **kwargs):
        return self.U(self.mask * self.V_adjoint(x))

class BlurFFT(DecomposablePhysics):
    def __init__(self, img_size, filter=None, device="cpu", **kwargs):
        super().__init__()
        self.device = device
        self.img_size = img_size
        self.update_parameters(filter=filter)

    def V_adjoint(self, x):
        return torch.view_as_real(fft.rfft2(x, norm="ortho"))

    def U(self, x):
        return fft.irfft2(torch.view_as_complex(x) * self.angle, norm="ortho", s=self.img_size[-2:])

    def update_parameters(self, filter=None, **kwargs):
        if filter is not None:
            self.filter = torch.nn.Parameter(filter, requires_grad=False).to(self.device)
            mask = filter_fft_2d(filter, self.img_size).to(self.device)
            self.angle = torch.angle(mask)
            self.angle = torch.exp(-1.0j * self.angle).to(self.device)
            mask = torch.abs(mask).unsqueeze(-1)
            mask = torch.cat([mask, mask], dim=-1)
            self.mask = torch.nn.Parameter(mask, requires_grad=False)

h = torch.ones((1, 1, 5, 5))
phy = BlurFFT((15, 15), h)

x = torch.ones((1, 1, 15, 15))
y_cpu = phy(x)

x = x.to("cuda:0")
phy = phy.to("cuda:0")
'''
CELL = '''
y = phy(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["phy"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.angle = torch.exp(-1.0j * self.angle).to(self.device)",
                  "self.angle = torch.nn.Parameter(torch.exp(-1.0j * self.angle).to(self.device), requires_grad=False)")
CLEAN = False
