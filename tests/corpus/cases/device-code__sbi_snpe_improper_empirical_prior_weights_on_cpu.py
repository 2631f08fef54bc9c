"""sbi SNPE without an explicit prior, trained on the GPU: `build_posterior` fails in the `ImproperEmpirical` prior whose log-weights are CPU `ones`.

Source: https://github.com/sbi-dev/sbi/issues/728
"build_posterior fails after training SNPE on GPU": "I'm training SNPE without an explicit prior on
GPU. When I want to build the posterior ... If I repeat the training only on the CPU everything
works." The traceback ends in `mcmc_transform(prior, device=device)` -> `prior.mean` ->
`pyro.distributions.Empirical._weighted_mean`, `(value * relative_probs)`. `append_simulations`
had built `self._prior = ImproperEmpirical(theta_prior, ones(theta_prior.shape[0]))`: the samples
are the user's GPU `theta`, the log-weights a CPU `ones` (fixed in sbi#730 with
`device=self._device`). Stand-in: pyro's `Empirical` mean, sbi's `append_simulations`/`train`/
`build_posterior` reduced to these steps, a conditional affine density estimator; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn, ones

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read meta tensors

class Empirical(torch.distributions.Distribution):
    def __init__(self, samples, log_weights, validate_args=None):
        self._samples = samples
        self._log_weights = log_weights
        self._aggregation_dim = log_weights.dim() - 1
        self._categorical = torch.distributions.Categorical(logits=self._log_weights)
        super().__init__(batch_shape=log_weights.shape[:-1], event_shape=samples.shape[log_weights.dim():])

    def _weighted_mean(self, value, keepdim=False):
        weights = self._log_weights.reshape(self._log_weights.size() + torch.Size([1] * (value.dim() - self._log_weights.dim())))
        dim = self._aggregation_dim
        max_weight = weights.max(dim=dim, keepdim=True)[0]
        relative_probs = (weights - max_weight).exp()
        return (value * relative_probs).sum(dim=dim, keepdim=keepdim) / relative_probs.sum(dim=dim, keepdim=keepdim)

    @property
    def mean(self):
        return self._weighted_mean(self._samples)

    @property
    def variance(self):
        deviation_squared = torch.pow(self._samples - self.mean, 2)
        return self._weighted_mean(deviation_squared)

class ImproperEmpirical(Empirical):
    pass

def mcmc_transform(prior, device="cpu", enable_transform=True):
    if hasattr(prior, "mean") and hasattr(prior, "stddev"):
        prior_mean = prior.mean.to(device)
        prior_std = prior.stddev.to(device)
        return lambda theta: (theta - prior_mean) / prior_std
    return lambda theta: theta

class ConditionalAffine(nn.Module):
    def __init__(self, theta_dim, x_dim, hidden=50):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * theta_dim))
    def log_prob(self, theta, x):
        shift, log_scale = self.net(x).chunk(2, dim=-1)
        z = (theta - shift) * torch.exp(-log_scale)
        return (-0.5 * z ** 2 - 0.5 * math.log(2 * math.pi) - log_scale).sum(-1)

class SNPE:
    def __init__(self, prior=None, density_estimator="maf", device="cpu"):
        self._prior = prior
        self._device = device
        self._theta_roundwise, self._x_roundwise = [], []

    def get_simulations(self):
        return torch.cat(self._theta_roundwise), torch.cat(self._x_roundwise)

    def append_simulations(self, theta, x, proposal=None):
        self._theta_roundwise.append(theta)
        self._x_roundwise.append(x)
        if self._prior is None or isinstance(self._prior, ImproperEmpirical):
            theta_prior = self.get_simulations()[0]
            self._prior = ImproperEmpirical(theta_prior, ones(theta_prior.shape[0]))
        return self

    def train(self, training_batch_size=50, max_num_epochs=1):
        theta, x = self.get_simulations()
        self._neural_net = ConditionalAffine(theta.shape[1], x.shape[1]).to(self._device)
        opt = torch.optim.Adam(self._neural_net.parameters(), lr=5e-4)
        for i in range(0, len(theta), training_batch_size):
            opt.zero_grad()
            loss = -self._neural_net.log_prob(theta[i:i + training_batch_size], x[i:i + training_batch_size]).mean()
            loss.backward()
            opt.step()
        return self._neural_net

    def build_posterior(self, density_estimator=None, prior=None):
        prior = self._prior if prior is None else prior
        theta_transform = mcmc_transform(prior, device=self._device)
        return {"estimator": density_estimator, "prior": prior, "theta_transform": theta_transform}

device = "meta"                                 # "cuda" in the report
theta_train = torch.rand(500, 4).to(device)     # the user's training set, loaded from file and put on the GPU
x_train = (theta_train + 0.1 * torch.randn(500, 4, device=device))
inference = SNPE(density_estimator="maf", device=device)
density_estimator = inference.append_simulations(theta_train, x_train).train()
'''
CELL = '''
posterior = inference.build_posterior(density_estimator)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["inference._prior"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self._prior = ImproperEmpirical(theta_prior, ones(theta_prior.shape[0]))",
                  "self._prior = ImproperEmpirical(theta_prior, ones(theta_prior.shape[0], device=theta_prior.device))")
CLEAN = False
