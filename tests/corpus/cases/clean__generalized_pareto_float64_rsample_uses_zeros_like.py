"""Look-alike: a float64 `GeneralizedPareto` is sampled while the default dtype is float32.

Source: https://github.com/pytorch/pytorch/issues/198185
The report notes that only scoring breaks: "`icdf` already uses `torch.zeros_like(concentration)`,
so `rsample` works". Sampling a distribution built from float64 parameters, and transforming the
samples with float64 arithmetic, mixes nothing: the uniform draw takes the parameters' dtype.
Uses `torch.distributions.GeneralizedPareto` itself.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch.distributions import GeneralizedPareto

loc = torch.zeros(3, dtype=torch.float64)
scale = torch.ones(3, dtype=torch.float64)
concentration = torch.tensor([0.0, 0.3, -0.2], dtype=torch.float64)
d = GeneralizedPareto(loc, scale, concentration)
'''
CELL = '''
samples = d.rsample((5,))
quantiles = d.icdf(torch.full((3,), 0.5, dtype=torch.float64))
excess = (samples - quantiles).clamp(min=0).mean(0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
