"""Look-alike: torch-uncertainty's `BayesLinear` prior keeps its mixture tensors as plain CPU attributes and moves them itself in `log_prior`.

Source: https://github.com/torch-uncertainty/torch-uncertainty/blob/733fa7c125eafc2289b2850fb6799f7d233c1cff/torch_uncertainty/layers/bayesian_layers/sampler.py
`PriorDistribution.__init__` sets `self.pi = torch.tensor([pi, 1 - pi])`, `self.mus = torch.zeros(2)`
and `self.sigmas = torch.as_tensor([sigma_1, sigma_2])` — plain tensor attributes of an `nn.Module`
that `model.to("cuda")` leaves on the CPU, the usual recipe for a device mismatch. But
`log_prior(weight)` first calls `self.convert(weight.device)`, which moves all three to the sampled
weight's device before building the mixture; `TrainableDistribution.lsqrt2pi` is a 0-dim CPU class
tensor, which PyTorch lets mix with CUDA tensors. Stand-in: BayesLinear, TrainableDistribution and
PriorDistribution as in that version (distributions built with `validate_args=False` for the
simulation); a two-layer Bayesian MLP trained on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn import init

class TrainableDistribution(nn.Module):
    lsqrt2pi = torch.as_tensor(np.log(np.sqrt(2 * np.pi)))
    def __init__(self, mu, rho):
        super().__init__()
        self.mu = mu
        self.rho = rho
        self.sigma = None
        self.weight = None
    def sample(self):
        w_sample = torch.normal(mean=0, std=1, size=self.mu.shape, device=self.mu.device)
        self.sigma = torch.log1p(torch.exp(self.rho)).to(self.mu.device)
        self.weight = self.mu + self.sigma * w_sample
        return self.weight
    def log_posterior(self, weight=None):
        if weight is None:
            weight = self.weight
        lposterior = (self.lsqrt2pi + torch.log(self.sigma)
                      + (((weight - self.mu) ** 2) / (2 * self.sigma ** 2)) + 0.5)
        return -lposterior.sum()

class PriorDistribution(nn.Module):
    def __init__(self, sigma_1, sigma_2, pi):
        super().__init__()
        self.pi = torch.tensor([pi, 1 - pi])
        self.mus = torch.zeros(2)
        self.sigmas = torch.as_tensor([sigma_1, sigma_2])
    def log_prior(self, weight):
        self.convert(weight.device)
        mix = torch.distributions.Categorical(self.pi, validate_args=False)
        normals = torch.distributions.Normal(self.mus, self.sigmas, validate_args=False)
        self.distribution = torch.distributions.MixtureSameFamily(mix, normals, validate_args=False)
        return self.distribution.log_prob(weight).sum()
    def convert(self, device):
        self.pi = self.pi.to(device)
        self.mus = self.mus.to(device)
        self.sigmas = self.sigmas.to(device)

class BayesLinear(nn.Module):
    def __init__(self, in_features, out_features, prior_sigma_1=0.1, prior_sigma_2=0.4,
                 prior_pi=1, mu_init=0.0, sigma_init=-7.0, bias=True):
        super().__init__()
        self.mu_init, self.sigma_init, self.bias = mu_init, sigma_init, bias
        self.weight_mu = nn.Parameter(torch.empty((out_features, in_features)))
        self.weight_sigma = nn.Parameter(torch.empty((out_features, in_features)))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.empty(out_features))
        self.reset_parameters()
        self.weight_sampler = TrainableDistribution(self.weight_mu, self.weight_sigma)
        self.bias_sampler = TrainableDistribution(self.bias_mu, self.bias_sigma)
        self.weight_prior_dist = PriorDistribution(prior_sigma_1, prior_sigma_2, prior_pi)
        self.bias_prior_dist = PriorDistribution(prior_sigma_1, prior_sigma_2, prior_pi)
        self.lprior = 0
        self.lvposterior = 0
    def reset_parameters(self):
        init.normal_(self.weight_mu, mean=self.mu_init, std=0.1)
        init.normal_(self.weight_sigma, mean=self.sigma_init, std=0.1)
        init.normal_(self.bias_mu, mean=self.mu_init, std=0.1)
        init.normal_(self.bias_sigma, mean=self.sigma_init, std=0.1)
    def forward(self, input):
        weight = self.weight_sampler.sample()
        bias = self.bias_sampler.sample()
        bias_lposterior = self.bias_sampler.log_posterior()
        bias_lprior = self.bias_prior_dist.log_prior(bias)
        self.lvposterior = self.weight_sampler.log_posterior() + bias_lposterior
        self.lprior = self.weight_prior_dist.log_prior(weight) + bias_lprior
        return F.linear(input, weight, bias)

class BayesMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = BayesLinear(20, 64)
        self.fc2 = BayesLinear(64, 3)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))

device = torch.device("cuda:0")
model = BayesMLP().to(device)
inputs = torch.randn(32, 20).to(device)
targets = torch.randint(0, 3, (32,)).to(device)
'''
CELL = '''
logits = model(inputs)
nll = F.cross_entropy(logits, targets)
kl = sum(m.lvposterior - m.lprior for m in (model.fc1, model.fc2))
loss = nll + 1e-3 * kl
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
