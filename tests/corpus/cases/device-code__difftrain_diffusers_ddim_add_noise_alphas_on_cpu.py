"""DDIM/DDPM `add_noise` moved the timesteps to the schedule's CPU device, so the noise factors stayed on the CPU.

Source: https://github.com/huggingface/diffusers/pull/648
Training with `noise_scheduler.add_noise(latents, noise, timesteps)` on a GPU broke after the schedulers
were made device-agnostic: `add_noise` did `timesteps = timesteps.to(self.alphas_cumprod.device)` and
computed `sqrt_alpha_prod = self.alphas_cumprod[timesteps] ** 0.5` on the CPU, then multiplied it with
the GPU `original_samples`. The PR ("makes sure that the alphas are on the same device as the original
sample") moves `self.alphas_cumprod` to `original_samples.device` instead. Stand-in: DDIMScheduler's
`add_noise` (lookup written `index_select`) in a training step; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class DDIMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.num_train_timesteps = num_train_timesteps
        self.betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        timesteps = timesteps.to(self.alphas_cumprod.device)
        sqrt_alpha_prod = self.alphas_cumprod.index_select(0, timesteps) ** 0.5
        sqrt_alpha_prod = sqrt_alpha_prod.flatten()
        while len(sqrt_alpha_prod.shape) < len(original_samples.shape):
            sqrt_alpha_prod = sqrt_alpha_prod.unsqueeze(-1)
        sqrt_one_minus_alpha_prod = (1 - self.alphas_cumprod.index_select(0, timesteps)) ** 0.5
        sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.flatten()
        while len(sqrt_one_minus_alpha_prod.shape) < len(original_samples.shape):
            sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.unsqueeze(-1)
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise

device = torch.device("cuda:0")
noise_scheduler = DDIMScheduler()
unet = nn.Conv2d(4, 4, 3, padding=1).to(device)
latents = torch.randn(2, 4, 16, 16).to(device)
noise = torch.randn(latents.shape).to(latents.device)
bsz = latents.shape[0]
timesteps = torch.randint(0, noise_scheduler.num_train_timesteps, (bsz,), device=latents.device).long()
'''
CELL = '''
noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
noise_pred = unet(noisy_latents)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["noise_scheduler.alphas_cumprod"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        timesteps = timesteps.to(self.alphas_cumprod.device)\n",
                  "        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)\n        timesteps = timesteps.to(original_samples.device)\n")
CLEAN = False
