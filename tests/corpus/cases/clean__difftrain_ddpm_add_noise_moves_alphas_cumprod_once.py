"""Look-alike: DDPMScheduler keeps `alphas_cumprod` on the CPU and moves it to the samples' device inside `add_noise`.

Source: https://github.com/huggingface/diffusers/pull/6704
In a Stable Diffusion training loop, `noise_scheduler.add_noise(latents, noise, timesteps)` runs every
step with GPU latents and GPU timesteps while the scheduler (not an nn.Module) built `alphas_cumprod`
on the CPU. `add_noise` brings the table to `original_samples.device` before indexing; the PR stores
the moved table back (`self.alphas_cumprod = self.alphas_cumprod.to(device=...)`) so later calls are
no-ops. A CPU table next to GPU data that runs: no finding expected. Stand-in: the scheduler's
`add_noise` (lookup written `index_select`) and one training step; GPU simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.config = type("Config", (), {"num_train_timesteps": num_train_timesteps})()
        self.betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        # Make sure alphas_cumprod and timestep have same device and dtype as original_samples
        # Move the self.alphas_cumprod to device to avoid redundant CPU to GPU data movement
        # for the subsequent add_noise calls
        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)
        alphas_cumprod = self.alphas_cumprod.to(dtype=original_samples.dtype)
        timesteps = timesteps.to(original_samples.device)
        sqrt_alpha_prod = alphas_cumprod.index_select(0, timesteps) ** 0.5
        sqrt_one_minus_alpha_prod = (1 - alphas_cumprod.index_select(0, timesteps)) ** 0.5
        return sqrt_alpha_prod[:, None, None, None] * original_samples + sqrt_one_minus_alpha_prod[:, None, None, None] * noise

device = torch.device("cuda:0")
noise_scheduler = DDPMScheduler()
unet = nn.Conv2d(4, 4, 3, padding=1).to(device)
latents = torch.randn(2, 4, 16, 16).to(device)
'''
CELL = '''
with torch.no_grad():
    noise = torch.randn_like(latents)
    bsz = latents.shape[0]
    timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (bsz,), device=latents.device).long()
    noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
    model_pred = unet(noisy_latents)
    loss = ((model_pred.float() - noise.float()) ** 2).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
