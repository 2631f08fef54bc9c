"""torch-harmonics README example: `RealSHT` moved to the GPU, the input `signal` left on the CPU.

Source: https://github.com/NVIDIA/torch-harmonics/pull/63
The README's quick-start built `signal = torch.randn(batch_size, nlat, nlon)` and
`sht = th.RealSHT(nlat, nlon, grid="equiangular").to(device)`, then `coeffs = sht(signal)` raised
"Expected all tensors to be on the same device": the Legendre weights are buffers that followed
`.to(device)`, the signal was never moved. The PR (acknowledged by the maintainers) creates the
signal on `device`. Stand-in: RealSHT with a registered weight buffer, rfft along longitude and the
Legendre contraction.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class RealSHT(nn.Module):
    def __init__(self, nlat, nlon, lmax=None, mmax=None, grid="equiangular"):
        super().__init__()
        self.nlat, self.nlon = nlat, nlon
        self.lmax = lmax or nlat
        self.mmax = mmax or nlon // 2 + 1
        weights = torch.randn(self.mmax, self.lmax, nlat) / nlat
        self.register_buffer("weights", weights, persistent=False)
    def forward(self, x):
        x = torch.fft.rfft(x, dim=-1, norm="forward")
        x = torch.view_as_real(x[..., : self.mmax])
        re = torch.einsum("...km,mlk->...lm", x[..., 0], self.weights)
        im = torch.einsum("...km,mlk->...lm", x[..., 1], self.weights)
        return torch.stack([re, im], -1)

batch_size, nlat, nlon = 2, 16, 32
device = torch.device("cuda:0")
signal = torch.randn(batch_size, nlat, nlon)
sht = RealSHT(nlat, nlon, grid="equiangular").to(device)
'''
CELL = '''
coeffs = sht(signal)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["signal"]
FIX = "namespace"
REFERENCE_FIX = '''
signal = signal.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
