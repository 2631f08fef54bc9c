"""Look-alike: min-SNR loss weighting reads the noise scheduler's CPU `alphas_cumprod` and moves it to the timesteps' device before indexing.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/training_utils.py
The scheduler is no module: its `alphas_cumprod` is built on the CPU and stays there while the UNet
and latents are on the accelerator. `DDPMScheduler.add_noise` moves it to the samples' device
(`self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)`), and
`compute_snr(noise_scheduler, timesteps)` again does
`sqrt_alphas_cumprod.to(device=timesteps.device)[timesteps].float()` (same for
`sqrt_one_minus_alphas_cumprod`); train_text_to_image.py then builds `mse_loss_weights` from the SNR.
A CPU schedule next to accelerator timesteps is by design.
Stand-ins: DDPMScheduler reduced to its schedule and `add_noise`; meta plays the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)
        self.config = type("Config", (), {"num_train_timesteps": num_train_timesteps, "prediction_type": "epsilon"})()

    def add_noise(self, original_samples, noise, timesteps):
        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)
        alphas_cumprod = self.alphas_cumprod.to(dtype=original_samples.dtype)
        timesteps = timesteps.to(original_samples.device)
        sqrt_alpha_prod = (alphas_cumprod[timesteps] ** 0.5).flatten()[:, None, None, None]
        sqrt_one_minus_alpha_prod = ((1 - alphas_cumprod[timesteps]) ** 0.5).flatten()[:, None, None, None]
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise

def compute_snr(noise_scheduler, timesteps):
    alphas_cumprod = noise_scheduler.alphas_cumprod
    sqrt_alphas_cumprod = alphas_cumprod ** 0.5
    sqrt_one_minus_alphas_cumprod = (1.0 - alphas_cumprod) ** 0.5
    sqrt_alphas_cumprod = sqrt_alphas_cumprod.to(device=timesteps.device)[timesteps].float()
    while len(sqrt_alphas_cumprod.shape) < len(timesteps.shape):
        sqrt_alphas_cumprod = sqrt_alphas_cumprod[..., None]
    alpha = sqrt_alphas_cumprod.expand(timesteps.shape)
    sqrt_one_minus_alphas_cumprod = sqrt_one_minus_alphas_cumprod.to(device=timesteps.device)[timesteps].float()
    while len(sqrt_one_minus_alphas_cumprod.shape) < len(timesteps.shape):
        sqrt_one_minus_alphas_cumprod = sqrt_one_minus_alphas_cumprod[..., None]
    sigma = sqrt_one_minus_alphas_cumprod.expand(timesteps.shape)
    return (alpha / sigma) ** 2

device = torch.device("meta")                      # the accelerator
noise_scheduler = DDPMScheduler()
unet = nn.Conv2d(4, 4, 3, padding=1).to(device)
latents = torch.randn(2, 4, 8, 8).to(device)
snr_gamma = 5.0
'''
CELL = '''
noise = torch.randn_like(latents)
bsz = latents.shape[0]
timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (bsz,), device=latents.device).long()
noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
model_pred = unet(noisy_latents)
snr = compute_snr(noise_scheduler, timesteps)
mse_loss_weights = torch.stack([snr, snr_gamma * torch.ones_like(timesteps)], dim=1).min(dim=1)[0] / snr
loss = F.mse_loss(model_pred.float(), noise.float(), reduction="none")
loss = (loss.mean(dim=list(range(1, len(loss.shape)))) * mse_loss_weights).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
