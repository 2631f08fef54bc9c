"""A truncated-normal distribution with CUDA parameters draws its uniform noise on the CPU.

Source: https://github.com/toshas/torch_truncnorm/issues/2
"device issue in rsample()": `TruncatedStandardNormal.rsample()` creates
`p = torch.empty(shape).uniform_(...)` with no device, so with `loc`/`scale` from a model on cuda
the `icdf(p)` mixes devices. torch.distributions objects have no `.to()`; the reporter proposed
creating `p` on the parameters' device (`.to(self._big_phi_a.device)`). Stand-in: the distribution reduced to what rsample uses.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class TruncatedNormal:
    """torch_truncnorm's TruncatedNormal, reduced to rsample."""
    def __init__(self, loc, scale, a, b):
        self.loc, self.scale = loc, scale
        self.a = (a - loc) / scale
        self.b = (b - loc) / scale
        self._big_phi_a = 0.5 * (1 + torch.erf(self.a / math.sqrt(2)))
        self._big_phi_b = 0.5 * (1 + torch.erf(self.b / math.sqrt(2)))
        self._Z = self._big_phi_b - self._big_phi_a

    def icdf(self, value):
        y = self._big_phi_a + value * self._Z
        return self.loc + self.scale * math.sqrt(2) * torch.erfinv(2 * y - 1)

    def rsample(self, sample_shape=torch.Size()):
        shape = torch.Size(sample_shape) + self.loc.shape
        p = torch.empty(shape).uniform_(1e-6, 1 - 1e-6)
        return self.icdf(p)

class Actor(nn.Module):
    def __init__(self, obs_dim=8, act_dim=2):
        super().__init__()
        self.mu = nn.Linear(obs_dim, act_dim)
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def forward(self, obs):
        loc, scale = self.mu(obs), self.log_std.exp().expand(obs.shape[0], -1)
        return TruncatedNormal(loc, scale, -1.0, 1.0)

device = torch.device("cuda:0")
actor = Actor().to(device)
obs = torch.randn(4, 8).to(device)
'''
CELL = '''
dist = actor(obs)
action = dist.rsample()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dist"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("p = torch.empty(shape).uniform_(1e-6, 1 - 1e-6)",
                  "p = torch.empty(shape).uniform_(1e-6, 1 - 1e-6).to(self.loc.device)")
CLEAN = False
