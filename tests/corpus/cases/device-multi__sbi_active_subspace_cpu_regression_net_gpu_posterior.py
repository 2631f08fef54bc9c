"""sbi `ActiveSubspace` with a posterior trained on the GPU: the sensitivity regression net is built and trained on the user's CPU `theta`, then fed GPU posterior samples.

Source: https://github.com/sbi-dev/sbi/issues/538
"Sensitivity on a posterior trained on GPU": computing the eigen-directions with `find_directions`
raised "Expected all tensors to be on the same device" at `sensitivity_analysis.py` (line 430, the
regression net's forward on `thetas = self._posterior.sample(...)`) down to `sbiutils.py` (its
z-scoring layer). "Could it be because the ActiveSubspace object is on cpu and the posterior on
GPU?" The user's workaround moved the posterior samples (and then the prior scale) to the CPU; the
maintainer confirmed the bug. Stand-in: `ActiveSubspace.add_property/train/find_directions` as in sbi
0.17 (a small MLP regression net after a buffer-based `Standardize`), a `DirectPosterior` whose
estimator and `BoxUniform` prior live on the GPU (the final eigen-decomposition left out); the
"GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-multi"
SETUP = '''
import math
from copy import deepcopy
import torch
from torch import nn

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read meta tensors

class Standardize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("_mean", mean)
        self.register_buffer("_std", std)
    def forward(self, tensor):
        return (tensor - self._mean) / self._std

def standardizing_net(batch_t, min_std=1e-7):
    return Standardize(batch_t.mean(0), batch_t.std(0).clamp(min=min_std))

class BoxUniform(torch.distributions.Independent):
    def __init__(self, low, high):
        super().__init__(torch.distributions.Uniform(low, high), 1)

class DirectPosterior:
    def __init__(self, posterior_estimator, prior, x_o):
        self.posterior_estimator, self.prior, self.default_x = posterior_estimator, prior, x_o
    def sample(self, sample_shape):
        n = torch.Size(sample_shape).numel()
        shift, log_scale = self.posterior_estimator(self.default_x).chunk(2, dim=-1)
        eps = torch.randn(n, shift.shape[-1], device=shift.device)
        return (shift + torch.exp(log_scale) * eps).detach()

class ActiveSubspace:
    def __init__(self, posterior):
        self._posterior = posterior
        self._regression_net = None
    def add_property(self, theta, emergent_property, hidden_features=100, z_score_theta=True, embedding_net=nn.Identity()):
        def build_mlp(theta):
            z_score_theta_net = standardizing_net(theta) if z_score_theta else nn.Identity()
            return nn.Sequential(z_score_theta_net, embedding_net,
                                 nn.Linear(theta.shape[1], hidden_features), nn.ReLU(), nn.Linear(hidden_features, 1))
        self._build_nn = build_mlp
        self._theta, self._emergent_property = theta, emergent_property
        return self
    def train(self, training_batch_size=50, learning_rate=5e-4, max_num_epochs=2):
        if self._regression_net is None:
            self._regression_net = self._build_nn(self._theta)
        optimizer = torch.optim.Adam(self._regression_net.parameters(), lr=learning_rate)
        for epoch in range(max_num_epochs):
            for i in range(0, len(self._theta), training_batch_size):
                optimizer.zero_grad()
                pred = self._regression_net(self._theta[i:i + training_batch_size])
                loss = ((pred - self._emergent_property[i:i + training_batch_size]) ** 2).mean()
                loss.backward()
                optimizer.step()
        return deepcopy(self._regression_net)
    def find_directions(self, posterior_log_prob_as_property=False, norm_gradients_to_prior=True, num_monte_carlo_samples=1000):
        thetas = self._posterior.sample((num_monte_carlo_samples,))
        thetas.requires_grad = True
        predictions = self._regression_net.forward(thetas)
        loss = predictions.mean()
        loss.backward()
        gradient_input = torch.squeeze(thetas.grad)
        if norm_gradients_to_prior:
            prior_scale = self._posterior.prior.stddev
            gradient_input *= prior_scale
        outer_products = torch.einsum("bi,bj->bij", (gradient_input, gradient_input))
        average_outer_product = outer_products.mean(dim=0)
        return average_outer_product

device = torch.device("meta")                    # "cuda" in the report
num_dim = 3
prior = BoxUniform(low=-2 * torch.ones(num_dim, device=device), high=2 * torch.ones(num_dim, device=device))
density_estimator = nn.Sequential(nn.Linear(num_dim, 50), nn.ReLU(), nn.Linear(50, 2 * num_dim)).to(device)
x_o = torch.zeros(1, num_dim, device=device)
posterior = DirectPosterior(density_estimator, prior, x_o)

theta = torch.rand(500, num_dim) * 4 - 2          # the user's parameter sets and their emergent property, on the CPU
emergent_property = (theta ** 2).sum(-1, keepdim=True)
sensitivity = ActiveSubspace(posterior)
regression_net = sensitivity.add_property(theta, emergent_property).train()
'''
CELL = '''
avg_outer = sensitivity.find_directions(posterior_log_prob_as_property=False)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["sensitivity._regression_net"]
FIX = "namespace"
REFERENCE_FIX = '''
sensitivity._regression_net.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
