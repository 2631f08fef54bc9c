"""gluonts' fixed DistributionForecast.quantile builds the level tensor on the distribution's device.

Source: https://github.com/awslabs/gluonts/issues/2662
After the fix for "DistributionForecast fails on GPU", `quantile` creates
`torch.tensor([level], device=self.distribution.mean.device)`; icdf then runs on the GPU.
Look-alike: a tensor created inside a library method from a Python float, placed right.
Stand-in: the forecast class (numpy conversion dropped: fake tensors have no data).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch.distributions import Normal

class DistributionForecast:
    """gluonts.torch.model.forecast.DistributionForecast (stand-in, current code)."""

    def __init__(self, distribution, start_date=None, item_id=None):
        self.distribution = distribution
        self.start_date, self.item_id = start_date, item_id

    def quantile(self, level):
        level = float(level)
        return self.distribution.icdf(torch.tensor([level], device=self.distribution.mean.device)).cpu()

device = torch.device("cuda:0")
loc = torch.randn(5).to(device)
scale = (torch.rand(5) + 0.5).to(device)
forecast = DistributionForecast(Normal(loc, scale, validate_args=False), start_date="2015-04-07")
'''
CELL = '''
q10 = forecast.quantile(0.1)
q90 = forecast.quantile(0.9)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
