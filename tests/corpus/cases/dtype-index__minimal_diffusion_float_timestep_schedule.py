"""Diffusion sampling with a sub-sampled schedule: the timesteps are floats and index `alpha_bar`.

Source: https://github.com/VSehwag/minimal-diffusion/issues/4
`scalars.alpha_bar[t].sqrt()` in `get_x0_from_xt_eps` raised "IndexError: tensors used as indices
must be long, byte or bool tensors": the timestep tensor `t` handed to the sampler was a float
tensor, so it could not index the schedule table. Stand-in: the scalars table, the x0 predictor
and a DDIM-style sampling step driven by a `np.linspace` schedule (float64 values).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Scalars:
    def __init__(self, timesteps=1000):
        self.beta = torch.linspace(1e-4, 0.02, timesteps)
        self.alpha = 1 - self.beta
        self.alpha_bar = torch.cumprod(self.alpha, dim=0)

def unsqueeze3x(x):
    return x[..., None, None, None]

def get_x0_from_xt_eps(xt, eps, t, scalars):
    return (1 / unsqueeze3x(scalars.alpha_bar[t].sqrt())
            * (xt - unsqueeze3x((1 - scalars.alpha_bar[t]).sqrt()) * eps)).clamp(-1, 1)

scalars = Scalars()
model = nn.Conv2d(3, 3, 3, padding=1)
sampling_steps = np.linspace(0, 999, 25)[::-1]
xt = torch.randn(4, 3, 8, 8)
current_t = torch.tensor([sampling_steps[0]] * len(xt))
'''
CELL = '''
with torch.no_grad():
    eps = model(xt)
    x0 = get_x0_from_xt_eps(xt, eps, current_t, scalars)
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["current_t"]
FIX = "namespace"
REFERENCE_FIX = '''
current_t = current_t.long()
'''
REFERENCE_EDIT = None
CLEAN = False
