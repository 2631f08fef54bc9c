"""Look-alike: the diffusion schedule is moved to the device first, then indexed with the timesteps.

Source: https://github.com/CompVis/latent-diffusion/pull/282
"change order, first move to device, then index": after the user hit "indices should be either on
cpu or on the same device as the indexed tensor", the fix moves `alphas_cumprod` to the sampling
device and only then indexes it with the device timesteps. Tables, timesteps and latents share a
device; nothing to report. Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

device = torch.device("meta")
num_timesteps = 1000
betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_timesteps) ** 2
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
unet = nn.Conv2d(4, 4, 3, padding=1).to(device)
x_start = torch.randn(2, 4, 8, 8).to(device)
'''
CELL = '''
t = torch.randint(0, num_timesteps, (x_start.shape[0],)).to(device)
a_t = alphas_cumprod.to(device)[t].reshape(-1, 1, 1, 1)
noise = torch.randn_like(x_start)
x_noisy = a_t.sqrt() * x_start + (1 - a_t).sqrt() * noise
eps = unet(x_noisy)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
