"""score_sde_pytorch VESDE.discretize: the CPU `discrete_sigmas` are indexed with GPU timesteps before `.to(t.device)`.

Source: https://github.com/yang-song/score_sde_pytorch/issues/65
Running the reconstruction block of the notebook failed in `sde_lib.py` (VESDE.discretize):
`self.discrete_sigmas[timestep - 1].to(t.device)` indexes the CPU table `self.discrete_sigmas`
(`torch.exp(torch.linspace(...))`, made in `__init__`) with `timestep`, which is on the GPU with `t`.
The reporter's fix moves the table first: `self.discrete_sigmas.to(t.device)[timestep - 1]`.
Stand-in: the VESDE class with `sde`/`discretize` and a reverse-diffusion predictor step; the lookups
are written `index_select` (the simulator cannot index with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import numpy as np
import torch

class VESDE:
    def __init__(self, sigma_min=0.01, sigma_max=50, N=1000):
        self.sigma_min = sigma_min
        self.sigma_max = sigma_max
        self.discrete_sigmas = torch.exp(torch.linspace(np.log(self.sigma_min), np.log(self.sigma_max), N))
        self.N = N

    @property
    def T(self):
        return 1

    def sde(self, x, t):
        sigma = self.sigma_min * (self.sigma_max / self.sigma_min) ** t
        drift = torch.zeros_like(x)
        diffusion = sigma * torch.sqrt(torch.tensor(2 * (np.log(self.sigma_max) - np.log(self.sigma_min)),
                                                    device=t.device))
        return drift, diffusion

    def discretize(self, x, t):
        timestep = (t * (self.N - 1) / self.T).long()
        sigma = self.discrete_sigmas.to(t.device).index_select(0, timestep)
        adjacent_sigma = torch.where(timestep == 0, torch.zeros_like(t),
                                     self.discrete_sigmas.index_select(0, (timestep - 1).clamp(min=0)).to(t.device))
        f = torch.zeros_like(x)
        G = torch.sqrt(sigma ** 2 - adjacent_sigma ** 2)
        return f, G

def score_fn(x, t):
    return -x

sde = VESDE(sigma_min=0.01, sigma_max=378, N=2000)
device = torch.device("cuda:0")
x = torch.randn(2, 3, 8, 8).to(device)
vec_t = torch.ones(x.shape[0], device=device) * 0.5
'''
CELL = '''
f, G = sde.discretize(x, vec_t)
rev_f = f - G[:, None, None, None] ** 2 * score_fn(x, vec_t)
x_mean = x - rev_f
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["sde.discrete_sigmas"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.discrete_sigmas.index_select(0, (timestep - 1).clamp(min=0)).to(t.device))",
                  "self.discrete_sigmas.to(t.device).index_select(0, (timestep - 1).clamp(min=0)))")
CLEAN = False
