"""A parameter-free positional encoding builds torch.arange(m) on the CPU in forward.

Source: https://github.com/jmclong/random-fourier-features-pytorch/pull/4
(fixes issue #2 of the same repository) PositionalEncoding.forward computed the frequencies from
torch.arange(self.m) without a device, so the layer only worked on the CPU: on cuda the product
with the input failed with a device mismatch. Moving the module does not help: it has no tensors.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn

class PositionalEncoding(nn.Module):
    def __init__(self, sigma, m):
        super().__init__()
        self.sigma = sigma
        self.m = m

    def forward(self, v):
        j = torch.arange(self.m)
        coeffs = 2 * math.pi * self.sigma ** (j / self.m)
        vp = coeffs * torch.unsqueeze(v, -1)
        vp_cat = torch.cat((torch.cos(vp), torch.sin(vp)), dim=-1)
        return vp_cat.flatten(-2, -1)

encoding = PositionalEncoding(sigma=1.0, m=10)
model = nn.Sequential(encoding, nn.Linear(2 * 2 * 10, 1)).to("cuda:0")
coords = torch.rand(16, 2).to("cuda:0")
'''
CELL = '''
pred = model(coords)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encoding"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.arange(self.m)", "torch.arange(self.m, device=v.device)")
CLEAN = False
