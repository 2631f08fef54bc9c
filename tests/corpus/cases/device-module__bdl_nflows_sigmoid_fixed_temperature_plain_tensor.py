"""nflows flow with a `Sigmoid` transform trained on the GPU: the fixed temperature is a plain tensor attribute that `.to()` skips.

Source: https://github.com/bayesiains/nflows/pull/48
"Added CUDA bug fix to the Sigmoid in the nonlinearities module": with `learn_temperature=False`,
`Sigmoid.__init__` stores `self.temperature = torch.Tensor([temperature])`, neither a parameter nor
a buffer, so "the temperature is not sent to the correct device when trying to train on the GPU"
and `forward` multiplies the CPU temperature with the CUDA inputs. The merged fix registers it as a
buffer (`self.register_buffer('temperature', temperature)`). Stand-in: nflows' Flow /
CompositeTransform / ReversePermutation / Sigmoid / StandardNormal reduced to the log-prob path.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn
from torch.nn import functional as F

def sum_except_batch(x, num_batch_dims=1):
    return x.reshape(*x.shape[:num_batch_dims], -1).sum(-1)

class Transform(nn.Module):
    """Stand-in for nflows.transforms.base.Transform."""

class CompositeTransform(Transform):
    def __init__(self, transforms):
        super().__init__()
        self._transforms = nn.ModuleList(transforms)
    def forward(self, inputs, context=None):
        outputs = inputs
        total_logabsdet = inputs.new_zeros(inputs.shape[0])
        for func in self._transforms:
            outputs, logabsdet = func(outputs, context)
            total_logabsdet = total_logabsdet + logabsdet
        return outputs, total_logabsdet

class ReversePermutation(Transform):
    def __init__(self, features, dim=1):
        super().__init__()
        self._dim = dim
        self.register_buffer("_permutation", torch.arange(features - 1, -1, -1))
    def forward(self, inputs, context=None):
        outputs = torch.index_select(inputs, self._dim, self._permutation)
        return outputs, inputs.new_zeros(inputs.shape[0])

class Sigmoid(Transform):
    def __init__(self, temperature=1, eps=1e-6, learn_temperature=False):
        super().__init__()
        self.eps = eps
        if learn_temperature:
            self.temperature = nn.Parameter(torch.Tensor([temperature]))
        else:
            self.temperature = torch.Tensor([temperature])
    def forward(self, inputs, context=None):
        inputs = self.temperature * inputs
        outputs = torch.sigmoid(inputs)
        logabsdet = sum_except_batch(
            torch.log(self.temperature) - F.softplus(-inputs) - F.softplus(inputs)
        )
        return outputs, logabsdet

class StandardNormal(nn.Module):
    def __init__(self, shape):
        super().__init__()
        self._shape = torch.Size(shape)
        self.register_buffer("_log_z", torch.tensor(0.5 * math.prod(shape) * math.log(2 * math.pi)), persistent=False)
    def log_prob(self, inputs, context=None):
        return -0.5 * sum_except_batch(inputs ** 2) - self._log_z

class Flow(nn.Module):
    """Stand-in for nflows.flows.base.Flow."""
    def __init__(self, transform, distribution):
        super().__init__()
        self._transform = transform
        self._distribution = distribution
    def log_prob(self, inputs, context=None):
        noise, logabsdet = self._transform(inputs, context=context)
        return self._distribution.log_prob(noise) + logabsdet

device = torch.device("cuda:0")
flow = Flow(
    CompositeTransform([ReversePermutation(features=2), Sigmoid()]),
    StandardNormal(shape=[2]),
).to(device)
inputs = torch.randn(64, 2).to(device)
'''
CELL = '''
with torch.no_grad():
    loss = -flow.log_prob(inputs=inputs).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["flow._transform._transforms[1]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            self.temperature = torch.Tensor([temperature])",
                  "            self.register_buffer('temperature', torch.Tensor([temperature]))")
CLEAN = False
