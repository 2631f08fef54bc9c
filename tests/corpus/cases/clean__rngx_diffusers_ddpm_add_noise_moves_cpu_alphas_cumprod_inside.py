"""Look-alike: diffusers `DDPMScheduler.add_noise` with its `alphas_cumprod` schedule on the CPU and the training batch on the GPU.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/schedulers/scheduling_ddpm.py
The scheduler builds `betas` / `alphas_cumprod` on the CPU in `__init__` (it is not an nn.Module,
nothing moves it). `add_noise` first does `self.alphas_cumprod = self.alphas_cumprod.to(device=
original_samples.device)`, casts a copy to the sample dtype and moves `timesteps` to the sample
device, then indexes the schedule. The training loop is the one of diffusers'
examples/unconditional_image_generation/train_unconditional.py (noise and timesteps drawn on
`clean_images.device`). The schedule sitting on the CPU before the call is fine. The scheduler is
reduced to `__init__` (linear betas) and `add_noise`, which is diffusers' code; the UNet is a tiny
stand-in. The GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F


class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.0001, beta_end=0.02):
        self.config = type("Cfg", (), {"num_train_timesteps": num_train_timesteps})()
        self.betas = torch.linspace(beta_start, beta_end, num_train_timesteps, dtype=torch.float32)
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)
        self.one = torch.tensor(1.0)
        self.timesteps = torch.from_numpy(np.arange(0, num_train_timesteps)[::-1].copy())

    def add_noise(self, original_samples, noise, timesteps):
        # Make sure alphas_cumprod and timestep have same device and dtype as original_samples
        # Move the self.alphas_cumprod to device to avoid redundant CPU to GPU data movement
        # for the subsequent add_noise calls
        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)
        alphas_cumprod = self.alphas_cumprod.to(dtype=original_samples.dtype)
        timesteps = timesteps.to(original_samples.device)

        sqrt_alpha_prod = alphas_cumprod[timesteps] ** 0.5
        sqrt_alpha_prod = sqrt_alpha_prod.flatten()
        while len(sqrt_alpha_prod.shape) < len(original_samples.shape):
            sqrt_alpha_prod = sqrt_alpha_prod.unsqueeze(-1)

        sqrt_one_minus_alpha_prod = (1 - alphas_cumprod[timesteps]) ** 0.5
        sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.flatten()
        while len(sqrt_one_minus_alpha_prod.shape) < len(original_samples.shape):
            sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.unsqueeze(-1)

        noisy_samples = sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise
        return noisy_samples


class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_embed = nn.Embedding(1000, 3)
        self.conv = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x, t):
        return self.conv(x + self.time_embed(t)[:, :, None, None])


device = torch.device("meta")   # cuda:0 on a GPU machine
noise_scheduler = DDPMScheduler(num_train_timesteps=1000)
model = TinyUNet().to(device)
batch = {"input": torch.rand(8, 3, 32, 32) * 2 - 1}
'''
CELL = '''
clean_images = batch["input"].to(device)
noise = torch.randn(clean_images.shape, dtype=clean_images.dtype, device=clean_images.device)
bsz = clean_images.shape[0]
timesteps = torch.randint(
    0, noise_scheduler.config.num_train_timesteps, (bsz,), device=clean_images.device
).long()
noisy_images = noise_scheduler.add_noise(clean_images, noise, timesteps)
model_output = model(noisy_images, timesteps)
loss = F.mse_loss(model_output.float(), noise.float())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
