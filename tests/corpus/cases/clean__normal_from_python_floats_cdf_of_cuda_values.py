"""Look-alike: a Normal built from Python floats (0-dim CPU loc/scale) evaluated on CUDA values.

Source: https://github.com/pytorch/pytorch/issues/12082
In 2018 `torch.distributions.Normal(0, 1).cdf(torch.tensor(.5, device='cuda'))` failed and the
reporter moved `m.loc` / `m.scale` to cuda by hand. In current PyTorch a distribution made from
Python numbers holds 0-dim CPU tensors, which combine with CUDA tensors like Python scalars, so the
CPU loc/scale next to GPU values are fine. Nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

device = torch.device("cuda:0")
m = torch.distributions.Normal(0., 1., validate_args=False)
z = torch.randn(16).to(device)
'''
CELL = '''
p = m.cdf(z)
lp = m.log_prob(z)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
