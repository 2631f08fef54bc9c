"""Look-alike: a zuko lazy `Flow` rebuilds its base `DiagNormal` on every call from `loc`/`scale` registered as buffers, so it follows `flow.to(device)`.

Source: https://github.com/probabilists/zuko/blob/master/zuko/lazy.py
zuko's flows build distributions lazily: `Flow.forward(c)` returns `NormalizingFlow(self.transform(c),
self.base(c))`, and the base is `UnconditionalDistribution(DiagNormal, torch.zeros(features),
torch.ones(features), buffer=True)`, whose tensors are registered as buffers. Unlike a
`torch.distributions.Normal` built once on the CPU, the distribution objects are created inside the
call from tensors already on the module's device. Stand-in: the lazy `Flow`/`Unconditional` pattern,
a context-conditioned affine transform as the lazy transform, `DiagNormal` as an `Independent(Normal)`;
the user's conditional log-density on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.distributions import AffineTransform, Independent, Normal, TransformedDistribution

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read fake tensors

def DiagNormal(loc, scale, ndims=1):
    return Independent(Normal(loc, scale), ndims)

class UnconditionalDistribution(nn.Module):
    def __init__(self, f, *args, buffer=False, **kwargs):
        super().__init__()
        self.f = f
        for i, arg in enumerate(args):
            if buffer:
                self.register_buffer(f"_{i}", arg)
            else:
                self.register_parameter(f"_{i}", nn.Parameter(arg))
        self.kwargs = kwargs
    def forward(self, c=None):
        return self.f(*self._parameters.values(), *self._buffers.values(), **self.kwargs)

class MaskedAffineTransform(nn.Module):
    def __init__(self, features, context, hidden=64):
        super().__init__()
        self.hyper = nn.Sequential(nn.Linear(context, hidden), nn.ReLU(), nn.Linear(hidden, 2 * features))
    def forward(self, c=None):
        shift, log_scale = self.hyper(c).chunk(2, dim=-1)
        return AffineTransform(shift, log_scale.exp(), event_dim=1)

class Flow(nn.Module):
    def __init__(self, transform, base):
        super().__init__()
        self.transform = transform
        self.base = base
    def forward(self, c=None):
        transform = self.transform(c)
        base = self.base(c) if c is None else self.base(c).expand(c.shape[:-1])
        return TransformedDistribution(base, [transform])

device = torch.device("cuda:0")
features, context = 3, 5
flow = Flow(MaskedAffineTransform(features, context),
            UnconditionalDistribution(DiagNormal, torch.zeros(features), torch.ones(features), buffer=True))
flow = flow.to(device)
x = torch.randn(256, features).to(device)
c = torch.randn(256, context).to(device)
'''
CELL = '''
with torch.no_grad():
    loss = -flow(c).log_prob(x).mean()
    samples = flow(c[:8]).sample((4,))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
