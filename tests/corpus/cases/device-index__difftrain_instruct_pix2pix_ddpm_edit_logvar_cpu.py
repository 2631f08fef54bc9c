"""InstructPix2Pix training (`ddpm_edit.py`): validation sanity check indexes the CPU `self.logvar` with GPU `t`.

Source: https://github.com/timothybrooks/instruct-pix2pix/issues/131
Training on a custom dataset with 3 TITAN RTX failed during the validation sanity check at
`logvar_t = self.logvar[t].to(self.device)` in `LatentDiffusion.p_losses` with "indices should be either
on cpu or on the same device as the indexed tensor (cpu)". The reporter found that `self.logvar` has
`device==cpu` (a plain tensor made in `__init__`, which Lightning's move to the GPU never touches) while
`t` is on the GPU, and solved it by moving `self.logvar` to `self.device` before indexing (CompVis PR
851). Stand-in: ddpm_edit's LatentDiffusion reduced to the edit-conditioned `p_losses` (the input image
latents concatenated to the noisy latents); lookups written `index_select`; GPU simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class LatentDiffusion(nn.Module):
    def __init__(self, timesteps=1000, logvar_init=0.):
        super().__init__()
        self.num_timesteps = timesteps
        self.model = nn.Conv2d(8, 4, 3, padding=1)           # in_channels 8: noisy latents + edit image latents
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, timesteps) ** 2
        alphas_cumprod = torch.cumprod(1. - betas, dim=0)
        self.register_buffer("sqrt_alphas_cumprod", torch.sqrt(alphas_cumprod))
        self.register_buffer("sqrt_one_minus_alphas_cumprod", torch.sqrt(1. - alphas_cumprod))
        self.logvar = torch.full(fill_value=logvar_init, size=(self.num_timesteps,))

    @property
    def device(self):
        return self.model.weight.device

    def q_sample(self, x_start, t, noise):
        return (self.sqrt_alphas_cumprod.index_select(0, t)[:, None, None, None] * x_start
                + self.sqrt_one_minus_alphas_cumprod.index_select(0, t)[:, None, None, None] * noise)

    def p_losses(self, x_start, cond, t, noise=None):
        noise = torch.randn_like(x_start) if noise is None else noise
        x_noisy = self.q_sample(x_start=x_start, t=t, noise=noise)
        model_output = self.model(torch.cat([x_noisy, cond["c_concat"][0]], dim=1))
        loss_simple = ((model_output - noise) ** 2).mean([1, 2, 3])
        logvar_t = self.logvar.index_select(0, t).to(self.device)
        loss = loss_simple / torch.exp(logvar_t) + logvar_t
        return loss.mean()

device = torch.device("cuda:0")
model = LatentDiffusion().to(device)
x = torch.randn(2, 4, 8, 8).to(device)                   # edited-image latents
c = {"c_concat": [torch.randn(2, 4, 8, 8).to(device)], "c_crossattn": [torch.randn(2, 77, 32).to(device)]}
t = torch.randint(0, model.num_timesteps, (x.shape[0],), device=model.device).long()
'''
CELL = '''
with torch.no_grad():
    loss = model.p_losses(x, c, t)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["model.logvar"]
FIX = "namespace"
REFERENCE_FIX = '''
model.logvar = model.logvar.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
