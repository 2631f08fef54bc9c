"""sbi `BoxUniform(low, high, device=...)`: the prior is a plain `torch.distributions` object, but its bounds are created on the requested device, so samples and log-probs match a CUDA density estimator.

Source: https://github.com/sbi-dev/sbi/blob/main/sbi/utils/torchutils.py
`BoxUniform.__init__` checks that `low` and `high` share a device, resolves `device` (default: the
device of `low`) and builds `Uniform(low=torch.as_tensor(low, dtype=torch.float32, device=device),
high=..., validate_args=False)` wrapped in `Independent`; the docstring says the device "should match
the training device when used in SBI". CPU-built `low`/`high` given with `device="cuda:0"` therefore
yield a CUDA prior: prior samples fed to a CUDA flow and `prior.log_prob` of CUDA parameters are
consistent, though the bounds were made on the CPU and the prior is no `nn.Module`.
Stand-in: sbi's `BoxUniform` (`process_device` reduced to `torch.device`); a small CUDA MLP density
head in place of the flow.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Optional
import torch
from torch import Tensor, nn
from torch.distributions import Independent, Uniform

def process_device(device):
    return str(torch.device(device))

class BoxUniform(Independent):
    def __init__(self, low: Tensor, high: Tensor, reinterpreted_batch_ndims: int = 1,
                 device: Optional[str] = None):
        assert isinstance(low, Tensor) and isinstance(high, Tensor), (
            f"low and high must be tensors but are {type(low)} and {type(high)}."
        )
        if not low.device == high.device:
            raise RuntimeError(
                "Expected all tensors to be on the same device, but found at least"
                f"two devices, {low.device} and {high.device}."
            )

        device = low.device.type if device is None else device
        device = process_device(device)

        super().__init__(
            Uniform(
                low=torch.as_tensor(low, dtype=torch.float32, device=torch.device(device)),
                high=torch.as_tensor(high, dtype=torch.float32, device=torch.device(device)),
                validate_args=False,
            ),
            reinterpreted_batch_ndims,
            validate_args=False,
        )

device = "cuda:0"
num_dim = 3
prior = BoxUniform(low=-2 * torch.ones(num_dim), high=2 * torch.ones(num_dim), device=device)
density_head = nn.Sequential(nn.Linear(num_dim + 5, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
x_o = torch.randn(1, 5).to(device)
'''
CELL = '''
theta = prior.sample((100,))
log_prior = prior.log_prob(theta)
scores = density_head(torch.cat([theta, x_o.expand(100, -1)], dim=1)).squeeze(-1) + log_prior
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
