"""Diffused Heads sampling: the schedule tables are plain tensor attributes of the `Diffusion` module, left on the CPU.

Source: https://github.com/MStypulkowski/diffused-heads/pull/22
"fixes problem with device mismatch": `Diffusion(nn.Module)` computes its schedule in `set_params()` as
plain attributes (`self.beta`, `self.log_beta_tilde_clipped`, `self.coef1_x0`, `self.coef2_x0`,
`self.coef1_q`, `self.coef2_q`), which `Module.to(device)` does not move, while `sample_loop` indexes
them with `timesteps_ids` built on the frames' GPU device. The PR moves each table to `xt.device`
before it is used. Stand-in: the Diffusion class with a small backbone predicting eps and nu (6
channels), 10 timesteps kept as a Python list; lookups written `index_select` (the simulator cannot
index with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Backbone(nn.Module):
    def __init__(self, in_channels=3, out_channels=6):
        super().__init__()
        self.conv = nn.Conv2d(2 * in_channels, out_channels, 3, padding=1)
    def forward(self, xt, timesteps, x_cond, motion_frames=None, audio_emb=None):
        return self.conv(torch.cat([xt, x_cond], dim=1))

class Diffusion(nn.Module):
    def __init__(self, nn_backbone, device, n_timesteps=10, in_channels=3, image_size=16, out_channels=6):
        super(Diffusion, self).__init__()
        self.nn_backbone = nn_backbone
        self.n_timesteps = n_timesteps
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.x_shape = (image_size, image_size)
        self.device = device
        self.timesteps = list(range(n_timesteps))
        self.beta = self.get_beta_schedule()
        self.set_params()

    def sample_loop(self, xT, x_cond, motion_frames, audio_emb):
        xt = xT
        for i, t in reversed(list(enumerate(self.timesteps))):
            timesteps = torch.tensor([t] * xT.shape[0]).to(xT.device)
            timesteps_ids = torch.tensor([i] * xT.shape[0]).to(xT.device)
            nn_out = self.nn_backbone(xt, timesteps, x_cond, motion_frames=motion_frames, audio_emb=audio_emb)
            mean, logvar = self.get_p_params(xt, timesteps_ids, nn_out)
            noise = torch.randn_like(xt) if t > 0 else torch.zeros_like(xt)
            xt = mean + noise * torch.exp(logvar / 2)
        return xt

    def get_p_params(self, xt, timesteps, nn_out):
        eps_pred, nu = nn_out.chunk(2, 1)
        nu = (nu + 1) / 2
        p_logvar = nu * self.expand(torch.log(self.beta.index_select(0, timesteps))) + \\
            (1 - nu) * self.expand(self.log_beta_tilde_clipped.index_select(0, timesteps))
        p_mean, _ = self.get_q_params(xt, timesteps, eps_pred=eps_pred)
        return p_mean, p_logvar

    def get_q_params(self, xt, timesteps, eps_pred=None, x0=None):
        if x0 is None:
            coef1_x0 = self.expand(self.coef1_x0.index_select(0, timesteps))
            coef2_x0 = self.expand(self.coef2_x0.index_select(0, timesteps))
            x0 = (coef1_x0 * xt - coef2_x0 * eps_pred).clamp(-1, 1)
        coef1_q = self.expand(self.coef1_q.index_select(0, timesteps))
        coef2_q = self.expand(self.coef2_q.index_select(0, timesteps))
        q_mean = coef1_q * x0 + coef2_q * xt
        q_logvar = self.expand(self.log_beta_tilde_clipped.index_select(0, timesteps))
        return q_mean, q_logvar

    def get_beta_schedule(self, max_beta=0.999):
        alpha_bar = lambda t: np.cos((t + 0.008) / 1.008 * np.pi / 2) ** 2
        betas = []
        for i in range(self.n_timesteps):
            t1 = i / self.n_timesteps
            t2 = (i + 1) / self.n_timesteps
            betas.append(min(1 - alpha_bar(t2) / alpha_bar(t1), max_beta))
        return torch.tensor(betas).float()

    def set_params(self):
        self.alpha = 1 - self.beta
        self.alpha_bar = torch.cumprod(self.alpha, dim=0)
        self.alpha_bar_prev = torch.cat([torch.ones(1,), self.alpha_bar[:-1]])
        self.beta_tilde = self.beta * (1.0 - self.alpha_bar_prev) / (1.0 - self.alpha_bar)
        self.log_beta_tilde_clipped = torch.log(torch.cat([self.beta_tilde[1, None], self.beta_tilde[1:]]))
        self.coef1_x0 = torch.sqrt(1.0 / self.alpha_bar)
        self.coef2_x0 = torch.sqrt(1.0 / self.alpha_bar - 1)
        self.coef1_q = self.beta * torch.sqrt(self.alpha_bar_prev) / (1.0 - self.alpha_bar)
        self.coef2_q = (1.0 - self.alpha_bar_prev) * torch.sqrt(self.alpha) / (1.0 - self.alpha_bar)

    def expand(self, arr, dim=4):
        while arr.dim() < dim:
            arr = arr[:, None]
        return arr.to(self.device)

device = torch.device("cuda:0")
diffusion = Diffusion(Backbone(), device).to(device)
x_cond = torch.randn(1, 3, 16, 16).to(device)
xT = torch.randn(1, 3, 16, 16).to(device)
motion_frames = None
audio_emb = None
'''
CELL = '''
with torch.no_grad():
    sample_frame = diffusion.sample_loop(xT, x_cond, motion_frames, audio_emb)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["diffusion.beta", "diffusion.log_beta_tilde_clipped", "diffusion.coef1_x0", "diffusion.coef2_x0",
            "diffusion.coef1_q", "diffusion.coef2_q"]
FIX = "namespace"
REFERENCE_FIX = '''
for name in ["beta", "log_beta_tilde_clipped", "coef1_x0", "coef2_x0", "coef1_q", "coef2_q"]:
    setattr(diffusion, name, getattr(diffusion, name).to(device))
'''
REFERENCE_EDIT = None
CLEAN = False
