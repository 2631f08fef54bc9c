"""kohya LoRA training with hand-added offset noise: the extra `torch.randn(b, c, 1, 1)` is made on the CPU.

Source: https://github.com/Linaqruf/kohya-trainer/issues/76
To try the offset-noise trick, the training code's noise line was changed to
`noise = torch.randn_like(latents) + 0.1 * torch.randn(latents.shape[0], latents.shape[1], 1, 1)`,
which raised "Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!": the second `torch.randn` has no device. The fix in the thread passes
`device=latents.device`. Stand-in: kohya's NetworkTrainer reduced to the noising part of one step
(DDPM `add_noise`) and a tiny UNet; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000):
        self.config = type("Config", (), {"num_train_timesteps": num_train_timesteps})()
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)
        sqrt_alpha_prod = alphas_cumprod.index_select(0, timesteps)[:, None, None, None] ** 0.5
        sqrt_one_minus = (1 - alphas_cumprod.index_select(0, timesteps))[:, None, None, None] ** 0.5
        return sqrt_alpha_prod * original_samples + sqrt_one_minus * noise

class NetworkTrainer:
    def __init__(self, unet, noise_scheduler):
        self.unet, self.noise_scheduler = unet, noise_scheduler

    def process_batch(self, latents):
        # Sample noise that we'll add to the latents
        noise = torch.randn_like(latents) + 0.1 * torch.randn(latents.shape[0], latents.shape[1], 1, 1)
        b_size = latents.shape[0]
        timesteps = torch.randint(0, self.noise_scheduler.config.num_train_timesteps, (b_size,), device=latents.device)
        noisy_latents = self.noise_scheduler.add_noise(latents, noise, timesteps)
        noise_pred = self.unet(noisy_latents)
        return ((noise_pred.float() - noise.float()) ** 2).mean()

device = torch.device("cuda:0")
unet = nn.Conv2d(4, 4, 3, padding=1).to(device)
trainer = NetworkTrainer(unet, DDPMScheduler())
latents = torch.randn(2, 4, 16, 16).to(device) * 0.18215
'''
CELL = '''
loss = trainer.process_batch(latents)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("noise = torch.randn_like(latents) + 0.1 * torch.randn(latents.shape[0], latents.shape[1], 1, 1)",
                  "noise = torch.randn_like(latents, device=latents.device) + 0.1 * torch.randn(latents.shape[0], latents.shape[1], 1, 1, device=latents.device)")
CLEAN = False
