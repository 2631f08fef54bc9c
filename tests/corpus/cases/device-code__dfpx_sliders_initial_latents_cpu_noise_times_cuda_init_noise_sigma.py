"""Concept Sliders training with `euler_a`: CPU noise times the scheduler's CUDA `init_noise_sigma`.

Source: https://github.com/rohitgandikota/sliders/issues/20
Setting `train.noise_scheduler` to `euler_a` crashed in `train_util.get_initial_latents` at
`latents = noise * scheduler.init_noise_sigma` with "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!" (DDIM's `init_noise_sigma` is the float 1.0; Euler
Ancestral's is `self.sigmas.max()`, a tensor on the device given to `set_timesteps`). The reporter's
fix moves the noise made by `get_random_noise` (on the CPU) to "cuda" in `get_initial_latents`.
Stand-in: diffusers' EulerAncestralDiscreteScheduler reduced to its sigmas and `init_noise_sigma`;
"cuda" is written cuda:0 (the simulation needs an index).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

UNET_IN_CHANNELS = 4
VAE_SCALE_FACTOR = 8

class EulerAncestralDiscreteScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        betas = np.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps, dtype=np.float32) ** 2
        self.alphas_cumprod = np.cumprod(1.0 - betas, axis=0)
        self.num_train_timesteps = num_train_timesteps
        self.sigmas = torch.from_numpy(((1 - self.alphas_cumprod) / self.alphas_cumprod) ** 0.5)

    @property
    def init_noise_sigma(self):
        return (self.sigmas.max() ** 2 + 1) ** 0.5

    def set_timesteps(self, num_inference_steps, device=None):
        timesteps = np.linspace(0, self.num_train_timesteps - 1, num_inference_steps)[::-1].copy()
        sigmas = np.array(((1 - self.alphas_cumprod) / self.alphas_cumprod) ** 0.5)
        sigmas = np.interp(timesteps, np.arange(0, len(sigmas)), sigmas)
        sigmas = np.concatenate([sigmas, [0.0]]).astype(np.float32)
        self.sigmas = torch.from_numpy(sigmas).to(device=device)
        self.timesteps = torch.from_numpy(timesteps).to(device=device)

def get_random_noise(batch_size, height, width, generator=None):
    return torch.randn(
        (batch_size, UNET_IN_CHANNELS, height // VAE_SCALE_FACTOR, width // VAE_SCALE_FACTOR),
        generator=generator,
    )

def get_initial_latents(scheduler, n_imgs, height, width, n_prompts, generator=None):
    noise = get_random_noise(n_imgs, height, width, generator=generator).repeat(n_prompts, 1, 1, 1)
    latents = noise * scheduler.init_noise_sigma
    return latents

device = torch.device("cuda:0")
unet = nn.Conv2d(4, 4, 3, padding=1).to(device)
noise_scheduler = EulerAncestralDiscreteScheduler()      # config.train.noise_scheduler == "euler_a"
noise_scheduler.set_timesteps(50, device=device)
height, width = 64, 64
'''
CELL = '''
with torch.no_grad():
    latents = get_initial_latents(noise_scheduler, 1, height, width, 1)
    denoised = unet(latents)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["get_initial_latents"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("noise = get_random_noise(n_imgs, height, width, generator=generator).repeat(n_prompts, 1, 1, 1)",
                  "noise = get_random_noise(n_imgs, height, width, generator=generator).repeat(n_prompts, 1, 1, 1).to(\"cuda:0\")")
CLEAN = False
