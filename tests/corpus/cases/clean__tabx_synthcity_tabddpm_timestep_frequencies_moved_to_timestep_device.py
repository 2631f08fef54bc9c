"""synthcity TabDDPM on `cuda`: `TimeStepEmbedding` still builds its frequencies with `torch.arange` on the CPU, then moves them to the timesteps' device.

Source: https://github.com/vanderschaarlab/synthcity/blob/main/src/synthcity/plugins/core/models/tabular_ddpm/modules.py
Since PR #161, `TimeStepEmbedding.forward` computes
`fs = torch.exp(-math.log(T) / mid * torch.arange(mid, dtype=torch.float32))` without a device and
then re-homes it with `fs = fs.to(timesteps.device)` before multiplying with the CUDA timesteps, so
the denoiser's forward pass stays on the GPU.
Look-alike: a tensor made without a device inside `forward`; it runs.
Stand-in: TimeStepEmbedding and MLPDiffusion (MLP reduced to two Linear layers) called on a batch of
noisy numeric rows and their timesteps.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class TimeStepEmbedding(nn.Module):
    def __init__(self, dim, max_period=10000, n_layers=2):
        super().__init__()
        self.dim = dim
        self.max_period = max_period
        layers = []
        for _ in range(n_layers - 1):
            layers += [nn.Linear(dim, dim), nn.SiLU()]
        self.fc = nn.Sequential(*layers, nn.Linear(dim, dim))

    def forward(self, timesteps):
        d, T = self.dim, self.max_period
        mid = d // 2
        fs = torch.exp(-math.log(T) / mid * torch.arange(mid, dtype=torch.float32))
        fs = fs.to(timesteps.device)
        args = timesteps[:, None].float() * fs[None]
        emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        return self.fc(emb)

class MLPDiffusion(nn.Module):
    def __init__(self, dim_in, dim_emb=128):
        super().__init__()
        self.proj = nn.Linear(dim_in, dim_emb)
        self.time_emb = TimeStepEmbedding(dim_emb)
        self.model = nn.Sequential(nn.Linear(dim_emb, 256), nn.SiLU(), nn.Linear(256, dim_in))

    def forward(self, x, t, y=None):
        emb = self.time_emb(t)
        x = self.proj(x) + emb
        return self.model(x)

device = torch.device("cuda:0")
denoise_fn = MLPDiffusion(dim_in=6).to(device)
x_t = torch.randn(256, 6, device=device)
t = torch.randint(0, 1000, (256,), device=device)
'''
CELL = '''
model_out = denoise_fn(x_t, t)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
