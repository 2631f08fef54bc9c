"""survae `StandardNormal` has no parameters, so it registers a one-element dummy buffer and samples on that buffer's device; after `model.to("cuda")` sampling lands on the GPU.

Source: https://github.com/didriknielsen/survae_flows/blob/master/survae/distributions/normal.py
`StandardNormal.__init__` calls `self.register_buffer('buffer', torch.zeros(1))` and `sample` draws
`torch.randn(num_samples, *self.shape, device=self.buffer.device, dtype=self.buffer.dtype)`; `Flow`
(survae/flows/flow.py) starts `log_prob` from `torch.zeros(x.shape[0], device=x.device)`. A flow moved
with `.to(device)` therefore samples noise on cuda and inverts it through CUDA transforms, and
`log_prob` of a CUDA batch stays on cuda: a parameterless base distribution next to `torch.randn` looks
like the classic CPU-noise bug, but is correct.
Stand-in: survae's `Flow`, `StandardNormal`, `sum_except_batch` verbatim; an element-wise affine
bijection with learned shift/log-scale in place of the user's coupling layers.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def sum_except_batch(x, num_dims=1):
    return x.reshape(*x.shape[:num_dims], -1).sum(-1)

class Distribution(nn.Module):
    pass

class Transform(nn.Module):
    has_inverse = True
    lower_bound = False

class StandardNormal(Distribution):
    """A multivariate Normal with zero mean and unit covariance."""

    def __init__(self, shape):
        super(StandardNormal, self).__init__()
        self.shape = torch.Size(shape)
        self.register_buffer('buffer', torch.zeros(1))

    def log_prob(self, x):
        log_base =  - 0.5 * math.log(2 * math.pi)
        log_inner = - 0.5 * x**2
        return sum_except_batch(log_base+log_inner)

    def sample(self, num_samples):
        return torch.randn(num_samples, *self.shape, device=self.buffer.device, dtype=self.buffer.dtype)

class ElementwiseAffine(Transform):
    def __init__(self, features):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(features))
        self.log_scale = nn.Parameter(torch.zeros(features))
    def forward(self, x):
        z = (x - self.shift) * torch.exp(-self.log_scale)
        ldj = -sum_except_batch(self.log_scale.expand_as(x))
        return z, ldj
    def inverse(self, z):
        return z * torch.exp(self.log_scale) + self.shift

class Flow(Distribution):
    def __init__(self, base_dist, transforms):
        super(Flow, self).__init__()
        self.base_dist = base_dist
        self.transforms = nn.ModuleList(transforms)
        self.lower_bound = any(transform.lower_bound for transform in transforms)

    def log_prob(self, x):
        log_prob = torch.zeros(x.shape[0], device=x.device)
        for transform in self.transforms:
            x, ldj = transform(x)
            log_prob += ldj
        log_prob += self.base_dist.log_prob(x)
        return log_prob

    def sample(self, num_samples):
        z = self.base_dist.sample(num_samples)
        for transform in reversed(self.transforms):
            z = transform.inverse(z)
        return z

device = torch.device("cuda:0")
model = Flow(base_dist=StandardNormal((2,)), transforms=[ElementwiseAffine(2), ElementwiseAffine(2)]).to(device)
x = torch.randn(128, 2).to(device)
'''
CELL = '''
loss = -model.log_prob(x).mean()
samples = model.sample(64)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
