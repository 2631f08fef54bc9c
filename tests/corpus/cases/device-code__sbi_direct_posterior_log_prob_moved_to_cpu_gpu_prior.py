"""sbi `DirectPosterior.log_prob` with a prior on the GPU: the network's log-probs are moved to the CPU "for comparison with prior", the prior-support mask stays on the GPU.

Source: https://github.com/sbi-dev/sbi/pull/515
"update prior device, direct posterior": "If `in_prior_support` is on gpu, an error is raised during
the `torch.where` instruction following." `log_prob` evaluated the density estimator on the device
and called `.cpu()` on the result, then masked it with `within_support(self._prior, theta)`; with a
GPU prior (and GPU `theta`) the mask is a CUDA tensor. The maintainer: "Up to now we assumed that the
prior lives on the CPU and always moved things to CPU when the prior is involved" (the same cause as
sbi#520). Stand-in: `DirectPosterior.log_prob` reduced to these lines, a `BoxUniform` prior built on
cuda, a conditional Gaussian density estimator.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read fake tensors

class BoxUniform(torch.distributions.Independent):
    def __init__(self, low, high, reinterpreted_batch_ndims=1, device="cpu"):
        super().__init__(torch.distributions.Uniform(low.to(device), high.to(device)), reinterpreted_batch_ndims)

def within_support(distribution, sample):
    return distribution.support.check(sample)

class ConditionalGaussian(nn.Module):
    def __init__(self, theta_dim, x_dim, hidden=50):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * theta_dim))
    def log_prob(self, theta, x):
        shift, log_scale = self.net(x).chunk(2, dim=-1)
        z = (theta - shift) * torch.exp(-log_scale)
        return (-0.5 * z ** 2 - 0.5 * math.log(2 * math.pi) - log_scale).sum(-1)

class DirectPosterior:
    def __init__(self, neural_net, prior, x_shape, device="cpu"):
        self.net, self._prior, self._x_shape, self._device = neural_net, prior, x_shape, device
    def log_prob(self, theta, x=None, norm_posterior=False, track_gradients=False):
        theta = torch.as_tensor(theta)
        x_repeated = x.repeat(theta.shape[0], 1)
        with torch.set_grad_enabled(track_gradients):
            # Evaluate on device, move back to cpu for comparison with prior.
            unnorm_log_prob = self.net.log_prob(theta.to(self._device), x_repeated.to(self._device)).cpu()
            # Force probability to be zero outside prior support.
            in_prior_support = within_support(self._prior, theta)
            masked_log_prob = torch.where(in_prior_support, unnorm_log_prob,
                                          torch.tensor(float("-inf"), dtype=torch.float32))
            return masked_log_prob

device = "cuda:0"
num_dim = 3
prior = BoxUniform(low=-2 * torch.ones(num_dim), high=2 * torch.ones(num_dim), device=device)
density_estimator = ConditionalGaussian(num_dim, num_dim).to(device)
posterior = DirectPosterior(density_estimator, prior, x_shape=(1, num_dim), device=device)
x_o = torch.zeros(1, num_dim, device=device)
theta = prior.sample((100,))
'''
CELL = '''
log_probability = posterior.log_prob(theta, x=x_o)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Expected condition, x and y to be on the same device")
CULPRITS = ["posterior"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("x_repeated.to(self._device)).cpu()", "x_repeated.to(self._device))")
CLEAN = False
