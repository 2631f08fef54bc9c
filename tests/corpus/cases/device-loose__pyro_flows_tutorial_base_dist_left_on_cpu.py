"""Pyro normalizing-flows tutorial on the GPU: the coupling transform and the data are moved, the `dist.Normal` base distribution is not.

Source: https://github.com/pyro-ppl/pyro/issues/2761
"GPU support for normalizing flows": following the tutorial, the user changed
`dataset = torch.tensor(X, dtype=torch.float).to('cuda')` and
`spline_transform = T.spline_coupling(2, count_bins=16).to('cuda')`, and training raised "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The base
distribution `dist.Normal(torch.zeros(2), torch.ones(2))` is not a module: its `loc`/`scale` stay on
the CPU and `flow_dist.log_prob` evaluates it on the transformed GPU batch. Stand-in:
`torch.distributions.TransformedDistribution` with a `TransformModule` affine coupling in place of
Pyro's spline coupling; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.distributions as dist
from torch.distributions import constraints

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read meta tensors

class TransformModule(dist.Transform, nn.Module):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
    def __hash__(self):
        return super(nn.Module, self).__hash__()

class AffineCoupling(TransformModule):
    domain = constraints.real_vector
    codomain = constraints.real_vector
    bijective = True
    def __init__(self, split_dim, hypernet):
        super().__init__(cache_size=0)
        self.split_dim = split_dim
        self.nn = hypernet
    def _call(self, x):
        x1, x2 = x[..., :self.split_dim], x[..., self.split_dim:]
        mean, log_scale = self.nn(x1).chunk(2, dim=-1)
        self._cached_log_scale = log_scale.clamp(-5, 3)
        return torch.cat([x1, torch.exp(self._cached_log_scale) * x2 + mean], dim=-1)
    def _inverse(self, y):
        y1, y2 = y[..., :self.split_dim], y[..., self.split_dim:]
        mean, log_scale = self.nn(y1).chunk(2, dim=-1)
        self._cached_log_scale = log_scale.clamp(-5, 3)
        return torch.cat([y1, (y2 - mean) * torch.exp(-self._cached_log_scale)], dim=-1)
    def log_abs_det_jacobian(self, x, y):
        return self._cached_log_scale.sum(-1)

def spline_coupling(input_dim, count_bins=8):
    split_dim = input_dim // 2
    hypernet = nn.Sequential(nn.Linear(split_dim, 10 * input_dim), nn.ReLU(), nn.Linear(10 * input_dim, 2 * (input_dim - split_dim)))
    return AffineCoupling(split_dim, hypernet)

X = torch.randn(1000, 2) * torch.tensor([1.0, 0.5]) + torch.tensor([0.5, 0.25])   # sklearn two-moons in the tutorial
device = torch.device("meta")                                                     # "cuda" in the report
dataset = torch.tensor(X, dtype=torch.float).to(device)
base_dist = dist.Normal(torch.zeros(2), torch.ones(2))
spline_transform = spline_coupling(2, count_bins=16).to(device)
flow_dist = dist.TransformedDistribution(base_dist, [spline_transform])
'''
CELL = '''
steps = 3
optimizer = torch.optim.Adam(spline_transform.parameters(), lr=5e-3)
for step in range(steps + 1):
    optimizer.zero_grad()
    loss = -flow_dist.log_prob(dataset).mean()
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["base_dist"]
FIX = "namespace"
REFERENCE_FIX = '''
base_dist = dist.Normal(torch.zeros(2, device=device), torch.ones(2, device=device))
flow_dist = dist.TransformedDistribution(base_dist, [spline_transform])
'''
REFERENCE_EDIT = None
CLEAN = False
