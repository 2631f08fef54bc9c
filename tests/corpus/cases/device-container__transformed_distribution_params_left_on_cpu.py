"""A `TransformedDistribution` built from CPU tensors is scored on CUDA data: distributions have no `.to()`.

Source: https://github.com/pytorch/pytorch/issues/31009
"Distributions are not nn.Modules": a user (KeAWang) with a `TransformedDistribution` wanted to
"move all of its parameters/buffers to a certain device with a simple call to `.to`. Right now I
would have to initialize a new `TransformedDistribution` while passing in all the newly moved
parameters for each of the `Transform`s". The maintainer (fritzo) closed it as infeasible: "I would
recommend constructing distributions lazily, as-needed". Here the flow was built on the CPU and its
`log_prob` is asked for a CUDA batch: the affine transform's `loc`/`scale` (held in the `transforms`
list) and the base Normal's parameters are all still CPU tensors.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch.distributions import Normal, TransformedDistribution
from torch.distributions.transforms import AffineTransform, ExpTransform

dim = 4
shift = torch.randn(dim)
log_scale = torch.zeros(dim)
flow = TransformedDistribution(
    Normal(torch.zeros(dim), torch.ones(dim), validate_args=False),
    [AffineTransform(shift, log_scale.exp()), ExpTransform()],
    validate_args=False,
)

device = "cuda:0"
x = (torch.rand(16, dim) + 0.5).to(device)
'''
CELL = '''
nll = -flow.log_prob(x).sum(-1).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["flow.transforms[0].loc", "flow.base_dist.loc"]
FIX = "namespace"
REFERENCE_FIX = '''
flow = TransformedDistribution(
    Normal(torch.zeros(dim, device=device), torch.ones(dim, device=device), validate_args=False),
    [AffineTransform(shift.to(device), log_scale.exp().to(device)), ExpTransform()],
    validate_args=False,
)
'''
REFERENCE_EDIT = None
CLEAN = False
