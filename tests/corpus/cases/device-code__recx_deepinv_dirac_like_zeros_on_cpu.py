"""deepinv `dirac_like(x)` returns a CPU dirac for a cuda `x`; using it as a blur filter fails on the GPU.

Source: https://github.com/deepinv/deepinv/issues/770
`dinv.utils.dirac_like(x)` for `x = torch.ones((1, 1, 32, 32), device='cuda')` returns a tensor on
'cpu': the helper allocates the dirac with `torch.zeros(...)` from the shape only. The report's fix:
create it on `x.device`. Here the user builds an identity (dirac) filter for an FFT blur of a cuda
image and multiplies the spectra. Stand-in: `dirac_like` as in deepinv.utils and an FFT-domain
blur helper.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def dirac_like(x):
    shape = x.shape
    out = torch.zeros(shape, dtype=x.dtype)
    center = tuple(s // 2 for s in shape[-2:])
    out[..., center[0], center[1]] = 1
    return out

def fft_blur(x, filt):
    return torch.fft.irfft2(torch.fft.rfft2(x) * torch.fft.rfft2(filt), s=x.shape[-2:])

x = torch.ones((1, 1, 32, 32), device="cuda:0")
'''
CELL = '''
h = dirac_like(x)
y = fft_blur(x, h)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dirac_like"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("out = torch.zeros(shape, dtype=x.dtype)", "out = torch.zeros(shape, dtype=x.dtype, device=x.device)")
CLEAN = False
