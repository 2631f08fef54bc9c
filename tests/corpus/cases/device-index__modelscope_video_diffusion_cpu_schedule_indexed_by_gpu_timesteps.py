"""ModelScope text-to-video diffusion: CPU beta-schedule tensors indexed with the timesteps on the GPU.

Source: https://github.com/modelscope/modelscope/issues/220
Running the text-to-video pipeline on an A10G failed in the diffusion helper
`_i(tensor, t, x)` (renamed `_index` here: IPython binds `_i` itself) at
`return tensor[t].view(shape).to(x)` with "indices should be either on cpu
or on the same device as the indexed tensor (cpu)": the `GaussianDiffusion` keeps its schedule
(`betas`, `alphas_cumprod`, ...) as CPU tensors, while the sampling loop builds `t` with
`torch.full(..., device=xt.device)` on the GPU. The schedule must live on (or be moved to) the
timesteps' device. Stand-in: the diffusion class with `_i`, `q_sample` and a DDIM-style step; the
row lookup is written `index_select` (the simulator cannot index with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import math
import torch
import torch.nn as nn

def _index(tensor, t, x):
    r"""Index tensor using t and format the output according to x."""
    shape = (x.size(0), ) + (1, ) * (x.ndim - 1)
    return tensor.index_select(0, t).view(shape).to(x)

def beta_schedule(schedule, num_timesteps=1000, init_beta=0.00085, last_beta=0.0120):
    if schedule == "linear_sd":
        return torch.linspace(init_beta ** 0.5, last_beta ** 0.5, num_timesteps, dtype=torch.float64) ** 2
    raise ValueError(schedule)

class GaussianDiffusion:
    def __init__(self, betas):
        self.betas = betas
        self.num_timesteps = len(betas)
        alphas = 1 - self.betas
        self.alphas_cumprod = torch.cumprod(alphas, dim=0)
        self.sqrt_alphas_cumprod = torch.sqrt(self.alphas_cumprod)
        self.sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - self.alphas_cumprod)

    def q_sample(self, x0, t, noise=None):
        noise = torch.randn_like(x0) if noise is None else noise
        return _index(self.sqrt_alphas_cumprod, t, x0) * x0 + _index(self.sqrt_one_minus_alphas_cumprod, t, x0) * noise

    @torch.no_grad()
    def ddim_step(self, xt, t, model, model_kwargs={}):
        eps = model(xt, t, **model_kwargs)
        alphas = _index(self.alphas_cumprod, t, xt)
        x0 = (xt - (1 - alphas).sqrt() * eps) / alphas.sqrt()
        return x0

class UNetSD(nn.Module):
    def __init__(self, ch=4, dim=32):
        super().__init__()
        self.time_embed = nn.Linear(1, dim)
        self.proj = nn.Linear(ch, dim)
        self.out = nn.Linear(dim, ch)

    def forward(self, x, t, y=None):
        h = self.proj(x.permute(0, 2, 3, 4, 1))
        h = h + self.time_embed(t.float().unsqueeze(-1) / 1000).view(x.size(0), 1, 1, 1, -1)
        return self.out(torch.relu(h)).permute(0, 4, 1, 2, 3)

device = torch.device("cuda:0")
diffusion = GaussianDiffusion(beta_schedule("linear_sd", 1000))
model = UNetSD().to(device).eval()
xt = torch.randn(1, 4, 16, 32, 32).to(device)        # (b, c, frames, h, w) latent video
t = torch.full((xt.size(0), ), 999, dtype=torch.long, device=xt.device)
'''
CELL = '''
x0 = diffusion.ddim_step(xt, t, model)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["diffusion.alphas_cumprod"]
FIX = "namespace"
REFERENCE_FIX = '''
diffusion.alphas_cumprod = diffusion.alphas_cumprod.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
