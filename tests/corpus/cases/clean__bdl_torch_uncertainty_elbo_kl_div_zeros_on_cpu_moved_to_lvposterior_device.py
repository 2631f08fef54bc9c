"""Look-alike: torch-uncertainty's `KLDiv` starts its KL accumulator with `torch.zeros(1)` on the CPU and moves it to each Bayesian layer's device.

Source: https://github.com/torch-uncertainty/torch-uncertainty/blob/main/src/torch_uncertainty/losses/bayesian.py
`KLDiv._kl_div` creates `kl_divergence = torch.zeros(1)` without a device — a tensor made inside a
loss on the CPU, the pattern behind many "found at least two devices" reports — but before adding
each layer's `lvposterior - lprior` it rebinds `kl_divergence = kl_divergence.to(device=
module.lvposterior.device)`; `ELBOLoss.forward` builds its own accumulator with
`device=inputs.device` and adds `self._kl_div().to(inputs.device)`. Stand-in: BayesLinear with its
TrainableDistribution sampler and CenteredGaussianMixture prior (buffers), KLDiv and ELBOLoss as in
torch-uncertainty; a Bayesian MLP trained on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, distributions, nn
from torch.nn import init

class TrainableDistribution(nn.Module):
    lsqrt2pi = torch.tensor(np.log(np.sqrt(2 * np.pi)))
    def __init__(self, mu, rho):
        super().__init__()
        self.mu = mu
        self.rho = rho
        self.sigma = None
        self.weight = None
    def sample(self):
        w_sample = torch.randn(size=self.mu.shape, device=self.mu.device)
        self.sigma = torch.log1p(torch.exp(self.rho)).to(self.mu.device)
        self.weight = self.mu + self.sigma * w_sample
        return self.weight
    def log_posterior(self, weight=None):
        if weight is None:
            weight = self.weight
        lposterior = (self.lsqrt2pi + torch.log(self.sigma)
                      + (((weight - self.mu) ** 2) / (2 * self.sigma ** 2)) + 0.5)
        return -lposterior.sum()

class CenteredGaussianMixture(nn.Module):
    def __init__(self, sigma_1, sigma_2, pi):
        super().__init__()
        self.register_buffer("pi", torch.tensor([pi, 1 - pi]))
        self.register_buffer("mus", torch.zeros(2))
        self.register_buffer("sigmas", torch.tensor([sigma_1, sigma_2]))
    def log_prob(self, weight):
        mix = distributions.Categorical(self.pi, validate_args=False)
        normals = distributions.Normal(self.mus, self.sigmas, validate_args=False)
        distribution = distributions.MixtureSameFamily(mix, normals, validate_args=False)
        return distribution.log_prob(weight).sum()

class BayesLinear(nn.Module):
    def __init__(self, in_features, out_features, prior_sigma_1=0.1, prior_sigma_2=0.4,
                 prior_pi=1, mu_init=0.0, sigma_init=-7.0):
        super().__init__()
        self.weight_mu = nn.Parameter(torch.empty((out_features, in_features)))
        self.weight_sigma = nn.Parameter(torch.empty((out_features, in_features)))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.empty(out_features))
        init.normal_(self.weight_mu, mean=mu_init, std=0.1)
        init.normal_(self.weight_sigma, mean=sigma_init, std=0.1)
        init.normal_(self.bias_mu, mean=mu_init, std=0.1)
        init.normal_(self.bias_sigma, mean=sigma_init, std=0.1)
        self.weight_sampler = TrainableDistribution(self.weight_mu, self.weight_sigma)
        self.bias_sampler = TrainableDistribution(self.bias_mu, self.bias_sigma)
        self.weight_prior_dist = CenteredGaussianMixture(prior_sigma_1, prior_sigma_2, prior_pi)
        self.bias_prior_dist = CenteredGaussianMixture(prior_sigma_1, prior_sigma_2, prior_pi)
        self.lprior = 0
        self.lvposterior = 0
    def forward(self, inputs):
        weight = self.weight_sampler.sample()
        bias = self.bias_sampler.sample()
        bias_lposterior = self.bias_sampler.log_posterior()
        bias_lprior = self.bias_prior_dist.log_prob(bias)
        self.lvposterior = self.weight_sampler.log_posterior() + bias_lposterior
        self.lprior = self.weight_prior_dist.log_prob(weight) + bias_lprior
        return F.linear(inputs, weight, bias)

bayesian_modules = (BayesLinear,)

class KLDiv(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
    def forward(self):
        return self._kl_div()
    def _kl_div(self):
        kl_divergence = torch.zeros(1)
        count = 0
        for module in self.model.modules():
            if isinstance(module, bayesian_modules):
                kl_divergence = kl_divergence.to(device=module.lvposterior.device)
                kl_divergence += module.lvposterior - module.lprior
                count += 1
        return kl_divergence / count

class ELBOLoss(nn.Module):
    def __init__(self, model, inner_loss, kl_weight, num_samples):
        super().__init__()
        self.model = model
        self._kl_div = KLDiv(model)
        self.inner_loss = inner_loss
        self.kl_weight = kl_weight
        self.num_samples = num_samples
    def forward(self, inputs, targets):
        aggregated_elbo = torch.zeros(1, device=inputs.device)
        for _ in range(self.num_samples):
            out = self.model(inputs)
            aggregated_elbo += self.inner_loss(out, targets)
            aggregated_elbo += self.kl_weight * self._kl_div().to(inputs.device)
        return aggregated_elbo / self.num_samples

device = torch.device("cuda:0")
model = nn.Sequential(BayesLinear(20, 64), nn.ReLU(), BayesLinear(64, 3)).to(device)
criterion = ELBOLoss(model, inner_loss=nn.CrossEntropyLoss(), kl_weight=1e-5, num_samples=3)
inputs = torch.randn(32, 20).to(device)
targets = torch.randint(0, 3, (32,)).to(device)
'''
CELL = '''
loss = criterion(inputs, targets)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
