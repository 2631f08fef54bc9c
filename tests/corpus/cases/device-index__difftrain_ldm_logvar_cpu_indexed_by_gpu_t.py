"""latent-diffusion `p_losses`: the plain-tensor `self.logvar` stays on the CPU and is indexed with GPU `t`.

Source: https://github.com/CompVis/stable-diffusion/pull/851
Training with `main.py` failed in `LatentDiffusion.p_losses` at `logvar_t = self.logvar[t].to(self.device)`
with "indices should be either on cpu or on the same device as the indexed tensor (cpu)":
`self.logvar = torch.full(fill_value=logvar_init, size=(self.num_timesteps,))` is a plain attribute
(not a buffer, not a Parameter unless `learn_logvar`), so moving the model to the GPU leaves it on the
CPU, while `t` is sampled on the model's device. The PR moves `self.logvar` to `self.device` first,
then indexes. Stand-in: LatentDiffusion reduced to `q_sample`/`p_losses` with a tiny UNet; the row
lookup is written `index_select` (the simulator cannot index with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class LatentDiffusion(nn.Module):
    def __init__(self, timesteps=1000, logvar_init=0., learn_logvar=False):
        super().__init__()
        self.num_timesteps = timesteps
        self.model = nn.Conv2d(4, 4, 3, padding=1)
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, timesteps) ** 2
        alphas_cumprod = torch.cumprod(1. - betas, dim=0)
        self.register_buffer("sqrt_alphas_cumprod", torch.sqrt(alphas_cumprod))
        self.register_buffer("sqrt_one_minus_alphas_cumprod", torch.sqrt(1. - alphas_cumprod))
        self.learn_logvar = learn_logvar
        self.logvar = torch.full(fill_value=logvar_init, size=(self.num_timesteps,))
        if self.learn_logvar:
            self.logvar = nn.Parameter(self.logvar, requires_grad=True)

    @property
    def device(self):
        return self.model.weight.device

    def q_sample(self, x_start, t, noise):
        a = self.sqrt_alphas_cumprod.index_select(0, t)[:, None, None, None]
        b = self.sqrt_one_minus_alphas_cumprod.index_select(0, t)[:, None, None, None]
        return a * x_start + b * noise

    def p_losses(self, x_start, cond, t, noise=None):
        noise = torch.randn_like(x_start) if noise is None else noise
        x_noisy = self.q_sample(x_start=x_start, t=t, noise=noise)
        model_output = self.model(x_noisy)
        target = noise
        loss_simple = ((model_output - target) ** 2).mean([1, 2, 3])
        logvar_t = self.logvar.index_select(0, t).to(self.device)
        loss = loss_simple / torch.exp(logvar_t) + logvar_t
        return loss.mean()

device = torch.device("cuda:0")
model = LatentDiffusion().to(device)            # what Lightning does with the LightningModule
x = torch.randn(2, 4, 8, 8).to(device)          # first-stage latents
c = None
t = torch.randint(0, model.num_timesteps, (x.shape[0],), device=model.device).long()
'''
CELL = '''
loss = model.p_losses(x, c, t)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["model.logvar"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("logvar_t = self.logvar.index_select(0, t).to(self.device)", "logvar_t = self.logvar.to(self.device).index_select(0, t)")
CLEAN = False
