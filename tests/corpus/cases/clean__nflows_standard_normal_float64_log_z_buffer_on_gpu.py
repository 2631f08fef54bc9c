"""Look-alike: nflows' `StandardNormal` keeps a float64 0-dim `_log_z` buffer in a float32 flow on cuda, and samples on that buffer's device.

Source: https://github.com/bayesiains/nflows/blob/master/nflows/distributions/normal.py
After nflows#9 the base distribution registers `_log_z = torch.tensor(0.5 * prod(shape) * log(2*pi),
dtype=torch.float64)` as a non-persistent buffer, so `flow.to(device)` moves it, and `_sample` draws
`torch.randn(num_samples, *shape, device=self._log_z.device)`. The float64 scalar next to float32
activations is deliberate and harmless: a 0-dim tensor does not promote a float32 batch
(`neg_energy - self._log_z` stays float32). Stand-in: `StandardNormal` as in nflows, a `Flow` with an
element-wise affine transform; log-density of a GPU batch and sampling on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def sum_except_batch(x, num_batch_dims=1):
    return torch.sum(x, dim=list(range(num_batch_dims, x.ndimension())))

class StandardNormal(nn.Module):
    def __init__(self, shape):
        super().__init__()
        self._shape = torch.Size(shape)
        self.register_buffer("_log_z",
                             torch.tensor(0.5 * np.prod(shape) * np.log(2 * np.pi), dtype=torch.float64),
                             persistent=False)
    def log_prob(self, inputs, context=None):
        neg_energy = -0.5 * sum_except_batch(inputs ** 2, num_batch_dims=1)
        return neg_energy - self._log_z
    def sample(self, num_samples, context=None):
        return torch.randn(num_samples, *self._shape, device=self._log_z.device)

class PointwiseAffineTransform(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(features))
        self.log_scale = nn.Parameter(torch.zeros(features))
    def forward(self, inputs, context=None):
        return (inputs - self.shift) * torch.exp(-self.log_scale), -self.log_scale.sum().expand(inputs.shape[0])
    def inverse(self, inputs, context=None):
        return inputs * torch.exp(self.log_scale) + self.shift, self.log_scale.sum().expand(inputs.shape[0])

class Flow(nn.Module):
    def __init__(self, transform, distribution):
        super().__init__()
        self._transform = transform
        self._distribution = distribution
    def log_prob(self, inputs, context=None):
        noise, logabsdet = self._transform(inputs, context=context)
        return self._distribution.log_prob(noise, context=context) + logabsdet
    def sample(self, num_samples, context=None):
        noise = self._distribution.sample(num_samples)
        samples, _ = self._transform.inverse(noise)
        return samples

device = torch.device("cuda:0")
flow = Flow(PointwiseAffineTransform(2), StandardNormal(shape=[2])).to(device)
x = torch.randn(128, 2).to(device)
'''
CELL = '''
with torch.no_grad():
    log_density = flow.log_prob(inputs=x)
    samples = flow.sample(64)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
