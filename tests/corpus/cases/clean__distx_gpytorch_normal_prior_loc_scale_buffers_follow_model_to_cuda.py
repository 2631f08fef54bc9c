"""gpytorch `NormalPrior` turns its `loc`/`scale` into registered buffers, so a prior registered on a kernel follows `model.to("cuda:0")` and scores the cuda hyperparameter.

Source: https://github.com/cornellius-gp/gpytorch/blob/main/gpytorch/priors/torch_priors.py
`NormalPrior(Prior, Normal)` calls `Normal.__init__` with python floats (so `loc`/`scale` start as
CPU tensors) and then `_bufferize_attributes(self, ("loc", "scale"))` deletes the plain attributes
and re-registers them as buffers (gpytorch/priors/utils.py). The prior is a submodule of the kernel
(`register_prior` stores it by name), so `Module.to()` moves `loc`/`scale`; `log_prob` of the cuda
lengthscale is all-cuda. A distribution built from floats inside a module looks like the stray-prior
bug, but here it is a module with buffers.
Stand-in: `Prior` (Distribution + Module), `NormalPrior`, `_bufferize_attributes` as in gpytorch;
`register_prior` and the kernel reduced to a module holding `raw_lengthscale` and the prior, with the
softplus constraint inlined; argument validation off as in gpytorch's priors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.distributions import Distribution, Normal
from torch.nn import Module as TModule

def _bufferize_attributes(module, attributes):
    attr_clones = {attr: getattr(module, attr).clone() for attr in attributes}
    for attr, value in attr_clones.items():
        delattr(module, attr)
        module.register_buffer(attr, value)

class Prior(Distribution, TModule):
    """Stand-in for gpytorch.priors.Prior."""
    def log_prob(self, x):
        return super(Prior, self).log_prob(x)

class NormalPrior(Prior, Normal):
    def __init__(self, loc, scale, validate_args=False, transform=None):
        TModule.__init__(self)
        Normal.__init__(self, loc=loc, scale=scale, validate_args=validate_args)
        _bufferize_attributes(self, ("loc", "scale"))
        self._transform = transform

class RBFKernel(nn.Module):
    """Kernel reduced to its raw lengthscale, its Positive() constraint and one registered prior."""
    def __init__(self, lengthscale_prior=None):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1, 1))
        if lengthscale_prior is not None:
            self.add_module("lengthscale_prior", lengthscale_prior)

    @property
    def lengthscale(self):
        return nn.functional.softplus(self.raw_lengthscale)

covar_module = RBFKernel(lengthscale_prior=NormalPrior(1.0, 0.5))
covar_module = covar_module.to("cuda:0")
'''
CELL = '''
prior_term = covar_module.lengthscale_prior.log_prob(covar_module.lengthscale).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
