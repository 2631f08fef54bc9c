"""GPyTorch `HalfCauchyPrior` moved to cuda still samples on the CPU.

Source: https://github.com/cornellius-gp/gpytorch/issues/2581
"Some priors do not respect selected device": after `prior.to("cuda:0")`, `NormalPrior` and
`GammaPrior` sample on cuda, but `HalfCauchyPrior`, `HalfNormalPrior`, `LogNormalPrior` and
`UniformPrior` return CPU samples although their `state_dict` (`_transformed_scale`, ...) is on
cuda: the buffers are moved, but the torch distribution those priors wrap keeps the CPU tensors it
was built with, and `rsample` reads those. Using the sample with cuda hyperparameters fails.
Stand-in: HalfCauchyPrior as a Module with the buffer plus the wrapped `torch.distributions`
object; the edit returns the sample on the buffer's device (drawing on a fake cuda tensor is not
possible in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.distributions import HalfCauchy

class HalfCauchyPrior(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.register_buffer("_transformed_scale", torch.as_tensor(scale, dtype=torch.float32))
        self._dist = HalfCauchy(self._transformed_scale, validate_args=False)

    def rsample(self, sample_shape=torch.Size()):
        return self._dist.rsample(sample_shape)

prior = HalfCauchyPrior(torch.ones(2))
prior.to("cuda:0")
raw_lengthscale = torch.zeros(2, device="cuda:0")
'''
CELL = '''
samples = prior.rsample()
lengthscale = torch.nn.functional.softplus(raw_lengthscale) + samples
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["prior"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return self._dist.rsample(sample_shape)",
                  "        return self._dist.rsample(sample_shape).to(self._transformed_scale.device)")
CLEAN = False
