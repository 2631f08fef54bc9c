"""pomegranate's Normal.summarize builds the default sample_weight on the CPU during a GPU HMM fit.

Source: https://github.com/jmschrei/pomegranate/issues/1131
Fitting an uninitialized `DenseHMM([Normal(), ...])` on the GPU without passing `sample_weight`
failed at `self._w_sum += torch.sum(sample_weight, dim=0)` (distributions/normal.py): the
accumulators are on cuda:0, the default weights made when none are given are on the CPU.
Stand-in: a Normal distribution with its summary buffers and a DenseHMM whose first fit step
summarizes the data with no weights (the EM loop is omitted). The fix (creating the default
weights on X's device) is my choice; the report only located the line.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Normal(nn.Module):
    """pomegranate.distributions.Normal (stand-in: the summary statistics only)."""

    def __init__(self, d=1, covariance_type="full"):
        super().__init__()
        self.covariance_type = covariance_type
        self.register_buffer("_w_sum", torch.zeros(d))
        self.register_buffer("_xw_sum", torch.zeros(d))
        self.register_buffer("_xxw_sum", torch.zeros(d, d))

    def summarize(self, X, sample_weight=None):
        if sample_weight is None:
            sample_weight = torch.ones(X.shape[0], 1).expand(-1, X.shape[1])
        if self.covariance_type == "full":
            self._w_sum += torch.sum(sample_weight, dim=0)
            self._xw_sum += torch.sum(X * sample_weight, dim=0)
            self._xxw_sum += torch.sum(sample_weight * X, dim=0).unsqueeze(0) * X.mean()

class DenseHMM(nn.Module):
    """pomegranate.hmm.DenseHMM (stand-in: the first summarize pass of fit)."""

    def __init__(self, distributions, max_iter=10):
        super().__init__()
        self.distributions = nn.ModuleList(distributions)
        self.max_iter = max_iter

    def fit(self, X, sample_weight=None):
        X = X.reshape(-1, X.shape[-1])
        for d in self.distributions:
            d.summarize(X, sample_weight=sample_weight)
        return self

X = torch.tensor([13., 14., 8., 10., 16., 26., 32., 27., 18., 32., 36., 24., 22., 23., 22., 18.,
                  25., 21., 21., 14., 8., 11., 14., 23., 18., 17., 19., 20.]).reshape(1, -1, 1)
model = DenseHMM([Normal(), Normal()], max_iter=10).to("cuda:0")
X = X.to("cuda:0")
'''
CELL = '''
model.fit(X)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones(X.shape[0], 1)", "torch.ones(X.shape[0], 1, device=X.device)")
CLEAN = False
