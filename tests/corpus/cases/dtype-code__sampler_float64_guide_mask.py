"""A custom diffusion sampler does its guide arithmetic in float64 and hands the result to the model.

Source: https://github.com/ClownsharkBatwing/RES4LYF/issues/22
"Input type (double) and bias type (float) should be the same" while sampling: the sampler sets
`default_dtype = torch.float64` for its schedules and guide weights, and a float64 blend of the
latent leaks into the float32 model call. Stand-in: one guided step of such a sampler.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

denoiser = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 4, 3, padding=1))

def guided_step(model, x, latent_guide, sigma, guide_weight=0.3):
    default_dtype = torch.float64
    lgw = torch.full((x.shape[0],), guide_weight, dtype=default_dtype)
    lgw_mask = lgw[:, None, None, None] * torch.ones(x.shape, dtype=default_dtype)
    x = x + lgw_mask * (latent_guide - x)
    return model(x / (sigma ** 2 + 1) ** 0.5)

x = torch.randn(1, 4, 16, 16)
latent_guide = torch.randn(1, 4, 16, 16)
'''
CELL = '''
with torch.no_grad():
    denoised = guided_step(denoiser, x, latent_guide, sigma=14.6)
'''
EXPECT_ERROR = "Input type (double) and bias type (float) should be the same"
CULPRITS = ["guided_step"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("default_dtype = torch.float64", "default_dtype = x.dtype")
CLEAN = False
