"""BLiTZ scale-mixture prior evaluated on GPU weight samples: `Normal(0, sigma)` built from Python floats (0-dim CPU tensors), runs.

Source: https://github.com/piEsposito/blitz-bayesian-deep-learning/pull/34
BLiTZ's `PriorWeightDistribution` (reworked in this PR to accept any torch distribution as prior)
keeps `self.dist1 = torch.distributions.Normal(0, sigma1)` and `self.dist2 = Normal(0, sigma2)` as
plain attributes: their loc/scale are 0-dim CPU tensors that `Module.to()` never moves, and
`log_prior(w)` evaluates them on the CUDA weight sample. 0-dim CPU tensors combine with CUDA tensors,
so this runs. Look-alike: distribution parameters on the CPU inside a GPU Bayesian layer. Stand-in:
the prior and a BayesianLinear computing log prior / log posterior (validate_args off).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch import nn

class PriorWeightDistribution(nn.Module):
    def __init__(self, pi=1, sigma1=0.1, sigma2=0.001):
        super().__init__()
        self.pi = pi
        self.sigma1 = sigma1
        self.sigma2 = sigma2
        self.dist1 = torch.distributions.Normal(0, sigma1, validate_args=False)
        self.dist2 = torch.distributions.Normal(0, sigma2, validate_args=False)
    def log_prior(self, w):
        prob_n1 = torch.exp(self.dist1.log_prob(w))
        prob_n2 = torch.exp(self.dist2.log_prob(w))
        prior_pdf = (self.pi * prob_n1 + (1 - self.pi) * prob_n2) + 1e-6
        return (torch.log(prior_pdf) - 0.5).sum()

class BayesianLinear(nn.Module):
    def __init__(self, in_features, out_features, prior_pi=0.5):
        super().__init__()
        self.weight_mu = nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.weight_rho = nn.Parameter(torch.full((out_features, in_features), -7.0))
        self.weight_prior_dist = PriorWeightDistribution(prior_pi, 0.1, 0.001)
    def forward(self, x):
        sigma = torch.log1p(torch.exp(self.weight_rho))
        eps = torch.randn_like(sigma)
        w = self.weight_mu + sigma * eps
        self.log_variational_posterior = (-math.log(math.sqrt(2 * math.pi)) - torch.log(sigma)
                                          - (eps ** 2) / 2).sum()
        self.log_prior = self.weight_prior_dist.log_prior(w)
        return F.linear(x, w)

device = torch.device("cuda:0")
blinear = BayesianLinear(8, 4).to(device)
x = torch.randn(16, 8, device=device)
'''
CELL = '''
with torch.no_grad():
    out = blinear(x)
    complexity = blinear.log_variational_posterior - blinear.log_prior
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
