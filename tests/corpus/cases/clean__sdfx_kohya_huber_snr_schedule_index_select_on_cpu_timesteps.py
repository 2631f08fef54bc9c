"""sd-scripts scheduled Huber loss ("snr" schedule): the scheduler's `alphas_cumprod` is kept on the CPU and indexed with `timesteps.cpu()`, the threshold moved back to the timesteps' device.

Source: https://github.com/kohya-ss/sd-scripts/blob/main/library/train_util.py
`get_noise_noisy_latents_and_timesteps` samples `timesteps` on the latents' device, calls
`noise_scheduler.add_noise(...)` (which moves the scheduler's `alphas_cumprod` to the GPU) and then
deliberately sets `noise_scheduler.alphas_cumprod = noise_scheduler.alphas_cumprod.cpu()`.
`get_huber_threshold_if_needed` then does
`torch.index_select(noise_scheduler.alphas_cumprod, 0, timesteps.cpu())`, computes the threshold on
the CPU and returns `result.to(timesteps.device)` for `conditional_loss`. A CPU schedule indexed by
cuda timesteps, moved on purpose: it runs.
Stand-ins: a DDIM-like scheduler whose `add_noise` moves `alphas_cumprod` to the sample's device, the
two train_util helpers and `conditional_loss` (huber); the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from types import SimpleNamespace
import torch

class DDIMScheduler:
    def __init__(self, num_train_timesteps=1000):
        self.config = SimpleNamespace(num_train_timesteps=num_train_timesteps)
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)
        alphas_cumprod = self.alphas_cumprod.to(dtype=original_samples.dtype)
        sqrt_alpha_prod = alphas_cumprod.index_select(0, timesteps).sqrt().view(-1, 1, 1, 1)
        sqrt_one_minus_alpha_prod = (1 - alphas_cumprod.index_select(0, timesteps)).sqrt().view(-1, 1, 1, 1)
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise

def get_noise_noisy_latents_and_timesteps(args, noise_scheduler, latents):
    noise = torch.randn_like(latents, device=latents.device)
    b_size = latents.shape[0]
    timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (b_size,), device=latents.device)
    noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
    noise_scheduler.alphas_cumprod = noise_scheduler.alphas_cumprod.cpu()
    return noise, noisy_latents, timesteps

def get_huber_threshold_if_needed(args, timesteps, noise_scheduler):
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
    return result

def conditional_loss(model_pred, target, loss_type, reduction, huber_c=None):
    if loss_type == "huber":
        huber_c = huber_c.view(-1, 1, 1, 1)
        loss = 2 * huber_c * (torch.sqrt((model_pred - target) ** 2 + huber_c ** 2) - huber_c)
        return loss.mean() if reduction == "mean" else loss
    return torch.nn.functional.mse_loss(model_pred, target, reduction=reduction)

args = SimpleNamespace(loss_type="huber", huber_schedule="snr", huber_c=0.1, huber_scale=1.0)
device = torch.device("cuda:0")
noise_scheduler = DDIMScheduler()
unet = torch.nn.Conv2d(4, 4, 3, padding=1).to(device)
latents = torch.randn(2, 4, 16, 16, device=device)
'''
CELL = '''
noise, noisy_latents, timesteps = get_noise_noisy_latents_and_timesteps(args, noise_scheduler, latents)
huber_c = get_huber_threshold_if_needed(args, timesteps, noise_scheduler)
noise_pred = unet(noisy_latents)
loss = conditional_loss(noise_pred.float(), noise.float(), args.loss_type, "none", huber_c)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
