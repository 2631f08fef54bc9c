"""DDPM training: the noise scheduler's cumulative-alpha tables are on the CPU, the timesteps on the GPU.

Source: https://github.com/explainingai-code/DDPM-Pytorch/issues/5
`LinearNoiseScheduler` builds `betas`, `alpha_cum_prod` and their square roots with plain
`torch.linspace`/`torch.cumprod` in `__init__` (not a Module, never moved); `add_noise(im, noise, t)`
indexes them with the cuda timesteps `t` and mixes them with the cuda image and noise. The user
reported "indices should be either on cpu or on the same device as the indexed tensor (cpu)" and
worked around it with `t.cpu()` and `.to(original.device)`. Simulated with meta as the accelerator;
indexing a CPU tensor with a meta index passes, so the CPU table surfaces in the product right after.
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class LinearNoiseScheduler:
    def __init__(self, num_timesteps, beta_start, beta_end):
        self.num_timesteps = num_timesteps
        self.betas = torch.linspace(beta_start, beta_end, num_timesteps)
        self.alphas = 1. - self.betas
        self.alpha_cum_prod = torch.cumprod(self.alphas, dim=0)
        self.sqrt_alpha_cum_prod = torch.sqrt(self.alpha_cum_prod)
        self.sqrt_one_minus_alpha_cum_prod = torch.sqrt(1 - self.alpha_cum_prod)

    def add_noise(self, original, noise, t):
        batch_size = original.shape[0]
        sqrt_alpha_cum_prod = self.sqrt_alpha_cum_prod[t].reshape(batch_size, 1, 1, 1)
        sqrt_one_minus_alpha_cum_prod = self.sqrt_one_minus_alpha_cum_prod[t].reshape(batch_size, 1, 1, 1)
        return sqrt_alpha_cum_prod * original + sqrt_one_minus_alpha_cum_prod * noise

class Unet(nn.Module):
    def __init__(self, ch=1):
        super().__init__()
        self.t_proj = nn.Linear(1, 8)
        self.conv_in = nn.Conv2d(ch, 8, 3, padding=1)
        self.conv_out = nn.Conv2d(8, ch, 3, padding=1)

    def forward(self, x, t):
        h = self.conv_in(x) + self.t_proj(t.float()[:, None])[:, :, None, None]
        return self.conv_out(h)

device = torch.device("meta")
scheduler = LinearNoiseScheduler(num_timesteps=1000, beta_start=0.0001, beta_end=0.02)
model = Unet().to(device)
im = torch.randn(4, 1, 16, 16).float().to(device)
'''
CELL = '''
noise = torch.randn_like(im).to(device)
t = torch.randint(0, 1000, (im.shape[0],)).to(device)
noisy_im = scheduler.add_noise(im, noise, t)
noise_pred = model(noisy_im, t)
'''
EXPECT_ERROR = ("is not on the expected device",
                "indices should be either on cpu or on the same device")
CULPRITS = ["scheduler.sqrt_alpha_cum_prod"]
FIX = "namespace"
REFERENCE_FIX = '''
scheduler.sqrt_alpha_cum_prod = scheduler.sqrt_alpha_cum_prod.to(device)
scheduler.sqrt_one_minus_alpha_cum_prod = scheduler.sqrt_one_minus_alpha_cum_prod.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
