"""InvokeAI's MPS port of the DDIM sampler: float64 schedule tensors are cast to float32 and moved to the model's device when registered.

Source: https://github.com/invoke-ai/InvokeAI/pull/179
MPS has no float64, so the PR changed `DDIMSampler.register_buffer` to
`attr = attr.to(torch.float32).to(torch.device(self.device))` (a reviewer suggested the single
`attr.to(dtype=torch.float32, device=self.device)`), and the sampler keeps them as plain attributes
set with `setattr`. Look-alike: float64 numpy schedules and plain tensor attributes outside any
Module next to a model on the accelerator; they are converted when stored. Stand-in: the sampler's
`make_schedule` and one `p_sample_ddim` step with a one-conv model; cuda:0 stands in for mps.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class EpsModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x, t):
        return self.conv(x)

class DDIMSampler:
    def __init__(self, model, device):
        self.model = model
        self.device = device

    def register_buffer(self, name, attr):
        if type(attr) == torch.Tensor:
            if attr.device != torch.device(self.device):
                attr = attr.to(dtype=torch.float32, device=self.device)
        setattr(self, name, attr)

    def make_schedule(self, ddim_num_steps=5):
        betas = np.linspace(1e-4, 0.02, 1000, dtype=np.float64)
        alphas_cumprod = np.cumprod(1.0 - betas)
        self.ddim_timesteps = np.arange(0, 1000, 1000 // ddim_num_steps) + 1
        a = alphas_cumprod[self.ddim_timesteps]
        a_prev = np.append(alphas_cumprod[0], alphas_cumprod[self.ddim_timesteps[:-1]])
        self.register_buffer("ddim_alphas", torch.from_numpy(a))
        self.register_buffer("ddim_alphas_prev", torch.from_numpy(a_prev))
        self.register_buffer("ddim_sqrt_one_minus_alphas", torch.from_numpy(np.sqrt(1.0 - a)))

    def p_sample_ddim(self, x, t, index):
        b = x.shape[0]
        e_t = self.model(x, t)
        a_t = torch.full((b, 1, 1, 1), 1.0, device=x.device) * self.ddim_alphas[index]
        a_prev = torch.full((b, 1, 1, 1), 1.0, device=x.device) * self.ddim_alphas_prev[index]
        sqrt_one_minus_at = torch.full((b, 1, 1, 1), 1.0, device=x.device) * self.ddim_sqrt_one_minus_alphas[index]
        pred_x0 = (x - sqrt_one_minus_at * e_t) / a_t.sqrt()
        dir_xt = (1.0 - a_prev).sqrt() * e_t
        return a_prev.sqrt() * pred_x0 + dir_xt

device = "cuda:0"                     # "mps"
model = EpsModel().to(device)
sampler = DDIMSampler(model, device)
sampler.make_schedule(ddim_num_steps=5)
x_T = torch.randn(1, 4, 16, 16).to(device)
'''
CELL = '''
x = x_T
for i in range(2):
    index = 4 - i
    t = torch.full((1,), int(sampler.ddim_timesteps[index]), device=device, dtype=torch.long)
    x = sampler.p_sample_ddim(x, t, index)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
