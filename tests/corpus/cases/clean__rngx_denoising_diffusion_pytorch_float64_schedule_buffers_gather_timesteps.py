"""Look-alike: lucidrains' `GaussianDiffusion` builds its noise schedule in float64 on the CPU and registers it as float32 buffers; `q_sample` gathers them with GPU timesteps.

Source: https://github.com/lucidrains/denoising-diffusion-pytorch/blob/main/denoising_diffusion_pytorch/denoising_diffusion_pytorch.py
`linear_beta_schedule` returns `torch.linspace(..., dtype=torch.float64)`; `__init__` derives
`alphas_cumprod`, `sqrt_alphas_cumprod`, ... on the CPU and stores them through
`register_buffer = lambda name, val: self.register_buffer(name, val.to(torch.float32))`, so
`diffusion.to(device)` carries them along and casts them. In training, `t = torch.randint(0,
self.num_timesteps, (b,), device=device).long()` and `extract(a, t, x_shape)` does `a.gather(-1, t)`.
The float64 CPU tensors in `__init__` never meet the GPU. Reduced to the schedule, `extract`,
`q_sample` and the loss; the denoiser is a tiny conv stand-in.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F


def extract(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


def linear_beta_schedule(timesteps):
    scale = 1000 / timesteps
    beta_start = scale * 0.0001
    beta_end = scale * 0.02
    return torch.linspace(beta_start, beta_end, timesteps, dtype=torch.float64)


class Denoiser(nn.Module):
    def __init__(self, channels=3):
        super().__init__()
        self.channels = channels
        self.net = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, t):
        return self.net(x)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, *, image_size, timesteps=1000):
        super().__init__()
        self.model = model
        self.channels = model.channels
        self.image_size = image_size

        betas = linear_beta_schedule(timesteps)
        alphas = 1. - betas
        alphas_cumprod = torch.cumprod(alphas, dim=0)
        alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.)

        timesteps, = betas.shape
        self.num_timesteps = int(timesteps)

        # helper function to register buffer from float64 to float32
        register_buffer = lambda name, val: self.register_buffer(name, val.to(torch.float32))

        register_buffer('betas', betas)
        register_buffer('alphas_cumprod', alphas_cumprod)
        register_buffer('alphas_cumprod_prev', alphas_cumprod_prev)
        register_buffer('sqrt_alphas_cumprod', torch.sqrt(alphas_cumprod))
        register_buffer('sqrt_one_minus_alphas_cumprod', torch.sqrt(1. - alphas_cumprod))

    def q_sample(self, x_start, t, noise=None):
        noise = torch.randn_like(x_start) if noise is None else noise
        return (
            extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start +
            extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise
        )

    def p_losses(self, x_start, t, noise=None):
        noise = torch.randn_like(x_start) if noise is None else noise
        x = self.q_sample(x_start=x_start, t=t, noise=noise)
        model_out = self.model(x, t)
        return F.mse_loss(model_out, noise)

    def forward(self, img):
        b, c, h, w, device = *img.shape, img.device
        t = torch.randint(0, self.num_timesteps, (b,), device=device).long()
        img = img * 2 - 1
        return self.p_losses(img, t)


device = "cuda:0"
diffusion = GaussianDiffusion(Denoiser(), image_size=32, timesteps=1000).to(device)
training_images = torch.rand(8, 3, 32, 32, device=device)
'''
CELL = '''
loss = diffusion(training_images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
