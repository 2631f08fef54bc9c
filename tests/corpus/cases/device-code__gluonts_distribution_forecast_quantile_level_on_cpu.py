"""gluonts' torch DistributionForecast.quantile builds the level tensor on the CPU.

Source: https://github.com/awslabs/gluonts/issues/2662
"DistributionForecast fails on GPU": in `DistributionForecast.quantile`, `torch.tensor([level])`
is created on the CPU while the parameters of `self.distribution` live on the GPU, so
`distribution.icdf(...)` fails. The fix passed `device=self.distribution.mean.device`.
Stand-in: the forecast class (the numpy conversion dropped: fake tensors have no data) holding a
Normal output distribution over a 5-step horizon.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch.distributions import Normal

class DistributionForecast:
    """gluonts.torch.model.forecast.DistributionForecast before the fix (stand-in)."""

    def __init__(self, distribution, start_date=None, item_id=None):
        self.distribution = distribution
        self.shape = distribution.batch_shape + distribution.event_shape
        self.prediction_length = self.shape[0]
        self.start_date, self.item_id = start_date, item_id

    def quantile(self, level):
        level = float(level)
        return self.distribution.icdf(torch.tensor([level])).cpu()

device = torch.device("cuda:0")
loc = torch.randn(5).to(device)
scale = (torch.rand(5) + 0.5).to(device)
forecast = DistributionForecast(Normal(loc, scale, validate_args=False), start_date="2015-04-07")
'''
CELL = '''
q90 = forecast.quantile(0.9)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["forecast"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor([level])", "torch.tensor([level], device=self.distribution.mean.device)")
CLEAN = False
