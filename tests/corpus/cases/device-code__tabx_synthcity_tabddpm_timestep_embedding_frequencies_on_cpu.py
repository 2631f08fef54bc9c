"""synthcity TabDDPM on `cuda`: `TimeStepEmbedding.forward` builds its sinusoid frequencies with `torch.arange` on the CPU.

Source: https://github.com/vanderschaarlab/synthcity/issues/160
Initialising the tabular DDPM plugin with `device=cuda` failed during training "due to inconsistent
devices across tensors"; the reporter points at `tabular_ddpm/modules.py` line 57, where
`TimeStepEmbedding.forward` computes `fs = torch.exp(-math.log(T) / mid * torch.arange(mid,
dtype=torch.float32))` without a device and multiplies it with the CUDA timesteps. The fix (PR #161)
adds `fs = fs.to(timesteps.device)`.
Stand-in: synthcity's TimeStepEmbedding and MLPDiffusion (tabular_ddpm/modules.py) with the MLP
reduced to two Linear layers, and GaussianMultinomialDiffusion reduced to the Gaussian branch of
`mixed_loss` for an all-numeric table; the loss is computed without the optimizer step.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

class TimeStepEmbedding(nn.Module):
    def __init__(self, dim, max_period=10000, n_layers=2):
        super().__init__()
        self.dim = dim
        self.max_period = max_period
        layers = []
        for _ in range(n_layers - 1):
            layers += [nn.Linear(dim, dim), nn.SiLU()]
        self.fc = nn.Sequential(*layers, nn.Linear(dim, dim))

    def forward(self, timesteps):
        d, T = self.dim, self.max_period
        mid = d // 2
        fs = torch.exp(-math.log(T) / mid * torch.arange(mid, dtype=torch.float32))
        args = timesteps[:, None].float() * fs[None]
        emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        return self.fc(emb)

class MLPDiffusion(nn.Module):
    def __init__(self, dim_in, dim_emb=128):
        super().__init__()
        self.dim_t = dim_emb
        self.proj = nn.Linear(dim_in, dim_emb)
        self.time_emb = TimeStepEmbedding(dim_emb)
        self.model = nn.Sequential(nn.Linear(dim_emb, 256), nn.SiLU(), nn.Linear(256, dim_in))

    def forward(self, x, t, y=None):
        emb = self.time_emb(t)
        x = self.proj(x) + emb
        return self.model(x)

class GaussianMultinomialDiffusion(nn.Module):
    """Stand-in: the Gaussian (numerical) half of synthcity's diffusion."""
    def __init__(self, num_numerical_features, num_timesteps=1000, dim_emb=128):
        super().__init__()
        self.num_numerics = num_numerical_features
        self.num_timesteps = num_timesteps
        self.denoise_fn = MLPDiffusion(num_numerical_features, dim_emb)
        betas = torch.linspace(1e-4, 0.02, num_timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("sqrt_alphas_cumprod", alphas_cumprod.sqrt())
        self.register_buffer("sqrt_one_minus_alphas_cumprod", (1.0 - alphas_cumprod).sqrt())

    def gaussian_q_sample(self, x_start, t, noise):
        return (self.sqrt_alphas_cumprod.gather(0, t)[:, None] * x_start
                + self.sqrt_one_minus_alphas_cumprod.gather(0, t)[:, None] * noise)

    def mixed_loss(self, x, cond=None):
        b = x.shape[0]
        t = torch.randint(0, self.num_timesteps, (b,), device=x.device)
        noise = torch.randn_like(x)
        x_num_t = self.gaussian_q_sample(x, t, noise=noise)
        model_out = self.denoise_fn(x_num_t, t, y=cond)
        loss_gauss = ((model_out - noise) ** 2).mean()
        return torch.zeros((1,), device=x.device), loss_gauss

device = torch.device("cuda:0")
diffusion = GaussianMultinomialDiffusion(num_numerical_features=6).to(device)
x = torch.randn(256, 6, device=device)           # a batch of the normalised numeric table
'''
CELL = '''
loss_multi, loss_gauss = diffusion.mixed_loss(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["diffusion.denoise_fn.time_emb"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        args = timesteps[:, None].float() * fs[None]",
                  "        fs = fs.to(timesteps.device)\n        args = timesteps[:, None].float() * fs[None]")
CLEAN = False
