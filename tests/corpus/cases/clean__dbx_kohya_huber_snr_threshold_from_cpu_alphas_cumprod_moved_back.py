"""Look-alike: sd-scripts Huber loss with the "snr" schedule reads `alphas_cumprod` on the CPU with `timesteps.cpu()` after `add_noise` moved it to the GPU and the trainer moved it back.

Source: https://github.com/kohya-ss/sd-scripts/blob/main/library/train_util.py
`get_timesteps` draws the timesteps on the CPU and moves them to the latents' device;
`get_noise_noisy_latents_and_timesteps` calls diffusers' `add_noise`, which moves the scheduler's
`alphas_cumprod` to the GPU, and then puts it back (`noise_scheduler.alphas_cumprod =
noise_scheduler.alphas_cumprod.cpu()`); `get_huber_threshold_if_needed` then does
`torch.index_select(noise_scheduler.alphas_cumprod, 0, timesteps.cpu())` and returns the threshold with
`result.to(timesteps.device)`, which `conditional_loss` uses with the GPU prediction. Every CPU tensor here is
deliberate.
Stand-ins: diffusers' DDPMScheduler reduced to its schedule and `add_noise` (gathering with `index_select`
instead of `[timesteps]`, which the simulated GPU cannot index), a one-conv U-Net and the script's args; the GPU
is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from types import SimpleNamespace
from typing import Optional
import torch
import torch.nn as nn

class DDPMScheduler:                                 # diffusers (stand-in)
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)
        self.config = SimpleNamespace(num_train_timesteps=num_train_timesteps, prediction_type="epsilon")
    def add_noise(self, original_samples, noise, timesteps):
        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)
        alphas_cumprod = self.alphas_cumprod.to(dtype=original_samples.dtype)
        timesteps = timesteps.to(original_samples.device)
        a = torch.index_select(alphas_cumprod, 0, timesteps).flatten()[:, None, None, None]
        return a ** 0.5 * original_samples + (1 - a) ** 0.5 * noise

def get_timesteps(min_timestep: int, max_timestep: int, b_size: int, device: torch.device) -> torch.Tensor:
    if min_timestep < max_timestep:
        timesteps = torch.randint(min_timestep, max_timestep, (b_size,), device="cpu")
    else:
        timesteps = torch.full((b_size,), max_timestep, device="cpu")
    timesteps = timesteps.long().to(device)
    return timesteps

def get_noise_noisy_latents_and_timesteps(args, noise_scheduler, latents):
    noise = torch.randn_like(latents, device=latents.device)
    b_size = latents.shape[0]
    min_timestep = 0 if args.min_timestep is None else args.min_timestep
    max_timestep = noise_scheduler.config.num_train_timesteps if args.max_timestep is None else args.max_timestep
    timesteps = get_timesteps(min_timestep, max_timestep, b_size, latents.device)
    noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
    # This moves the alphas_cumprod back to the CPU after it is moved in noise_scheduler.add_noise
    noise_scheduler.alphas_cumprod = noise_scheduler.alphas_cumprod.cpu()
    return noise, noisy_latents, timesteps

def get_huber_threshold_if_needed(args, timesteps: torch.Tensor, noise_scheduler) -> Optional[torch.Tensor]:
    if not (args.loss_type == "huber" or args.loss_type == "smooth_l1"):
        return None
    b_size = timesteps.shape[0]
    if args.huber_schedule == "exponential":
        alpha = -math.log(args.huber_c) / noise_scheduler.config.num_train_timesteps
        result = torch.exp(-alpha * timesteps) * args.huber_scale
    elif args.huber_schedule == "snr":
        alphas_cumprod = torch.index_select(noise_scheduler.alphas_cumprod, 0, timesteps.cpu())
        sigmas = ((1.0 - alphas_cumprod) / alphas_cumprod) ** 0.5
        result = (1 - args.huber_c) / (1 + sigmas) ** 2 + args.huber_c
        result = result.to(timesteps.device)
    elif args.huber_schedule == "constant":
        result = torch.full((b_size,), args.huber_c * args.huber_scale, device=timesteps.device)
    else:
        raise NotImplementedError(f"Unknown Huber loss schedule {args.huber_schedule}!")
    return result

def conditional_loss(model_pred, target, loss_type: str, reduction: str, huber_c=None):
    if loss_type == "l2":
        return torch.nn.functional.mse_loss(model_pred, target, reduction=reduction)
    huber_c = huber_c.view(-1, *([1] * (model_pred.ndim - 1)))
    loss = 2 * huber_c * (torch.sqrt((model_pred - target) ** 2 + huber_c**2) - huber_c)
    if reduction == "mean":
        loss = torch.mean(loss)
    return loss

args = SimpleNamespace(loss_type="huber", huber_schedule="snr", huber_c=0.1, huber_scale=1.0,
                       min_timestep=None, max_timestep=None)
device = torch.device("cuda:0")
noise_scheduler = DDPMScheduler()
unet = nn.Conv2d(4, 4, 3, padding=1).to(device)
latents = torch.randn(2, 4, 8, 8, device=device)
'''
CELL = '''
noise, noisy_latents, timesteps = get_noise_noisy_latents_and_timesteps(args, noise_scheduler, latents)
huber_c = get_huber_threshold_if_needed(args, timesteps, noise_scheduler)
noise_pred = unet(noisy_latents)
loss = conditional_loss(noise_pred.float(), noise.float(), args.loss_type, "none", huber_c)
loss = loss.mean([1, 2, 3]).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
