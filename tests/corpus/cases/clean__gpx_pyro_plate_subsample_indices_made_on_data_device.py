"""Look-alike: a Pyro `plate` with `subsample_size` and `device=` draws its subsample indices on the data's GPU.

Source: https://github.com/pyro-ppl/pyro/blob/dev/pyro/poutine/subsample_messenger.py
`with pyro.plate("data", len(data), subsample_size=64, device=data.device) as ind:` makes the
`_Subsample` draw `torch.randperm(size, device=self.device)[:subsample_size]`, so
`data.index_select(0, ind)` indexes a cuda tensor with cuda indices: index tensors created inside
library code next to GPU data, but on the right device. Stand-in: the plate's subsample draw and a
Normal log-likelihood scaled by size / subsample_size.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch.distributions import Normal

class plate:
    def __init__(self, name, size, subsample_size=None, device=None):
        self.name, self.size = name, size
        self.subsample_size = subsample_size or size
        self.device = device if device is not None else torch.device("cpu")

    def __enter__(self):
        self.indices = torch.randperm(self.size, device=self.device).narrow(0, 0, self.subsample_size)
        return self.indices

    def __exit__(self, *exc):
        return False

    @property
    def scale(self):
        return self.size / self.subsample_size

data = torch.randn(1000).to("cuda:0")
loc = torch.zeros((), device="cuda:0")
'''
CELL = '''
p = plate("data", len(data), subsample_size=64, device=data.device)
with p as ind:
    batch = data.index_select(0, ind)
    log_lik = p.scale * Normal(loc, 1.0, validate_args=False).log_prob(batch).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
