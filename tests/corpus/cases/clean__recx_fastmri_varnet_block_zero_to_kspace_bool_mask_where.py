"""fastMRI E2E-VarNet cascade: a CPU-made zero `.to(current_kspace)` and a boolean mask in `torch.where` soft data consistency.

Source: https://github.com/facebookresearch/fastMRI/blob/main/fastmri/models/varnet.py
`VarNetBlock.forward` builds `zero = torch.zeros(1, 1, 1, 1, 1).to(current_kspace)` on the CPU and
moves it to the k-space's device and dtype, then `torch.where(mask, current_kspace - ref_kspace,
zero) * self.dc_weight` with the boolean sampling mask batched next to k-space. Look-alike: a
tensor created without a device in forward, a bool mask mixed with float k-space; all of it is on
the GPU when used. Stand-in: the block with a tiny image-space regularizer and fastMRI's
complex-as-last-dim helpers (fft via view_as_complex).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def fft2c(x):
    return torch.view_as_real(torch.fft.fftn(torch.view_as_complex(x), dim=(-2, -1), norm="ortho"))

def ifft2c(x):
    return torch.view_as_real(torch.fft.ifftn(torch.view_as_complex(x), dim=(-2, -1), norm="ortho"))

def complex_mul(x, y):
    re = x[..., 0] * y[..., 0] - x[..., 1] * y[..., 1]
    im = x[..., 0] * y[..., 1] + x[..., 1] * y[..., 0]
    return torch.stack((re, im), dim=-1)

def complex_conj(x):
    return torch.stack((x[..., 0], -x[..., 1]), dim=-1)

class Regularizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.full((1,), 0.1))
    def forward(self, x):
        return x * self.scale

class VarNetBlock(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.dc_weight = nn.Parameter(torch.ones(1))

    def sens_expand(self, x, sens_maps):
        return fft2c(complex_mul(x, sens_maps))

    def sens_reduce(self, x, sens_maps):
        return complex_mul(ifft2c(x), complex_conj(sens_maps)).sum(dim=1, keepdim=True)

    def forward(self, current_kspace, ref_kspace, mask, sens_maps):
        zero = torch.zeros(1, 1, 1, 1, 1).to(current_kspace)
        soft_dc = torch.where(mask, current_kspace - ref_kspace, zero) * self.dc_weight
        model_term = self.sens_expand(self.model(self.sens_reduce(current_kspace, sens_maps)), sens_maps)
        return current_kspace - soft_dc - model_term

device = "cuda:0"
block = VarNetBlock(Regularizer()).to(device)
masked_kspace = torch.randn(1, 4, 32, 32, 2).to(device)
mask = (torch.rand(1, 1, 1, 32, 1) > 0.5).to(device)
sens_maps = torch.randn(1, 4, 32, 32, 2).to(device)
'''
CELL = '''
with torch.no_grad():
    kspace_pred = block(masked_kspace.clone(), masked_kspace, mask, sens_maps)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
