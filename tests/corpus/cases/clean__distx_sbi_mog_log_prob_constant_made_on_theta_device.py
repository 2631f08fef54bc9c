"""sbi's `mog_log_prob` (v0.24+) builds the Gaussian normalising constant from a Python `pi` with `torch.tensor([2 * pi], device=theta.device)` while scoring cuda parameters under a cuda mixture.

Source: https://github.com/sbi-dev/sbi/blob/main/sbi/utils/sbiutils.py
`mog_log_prob(theta, logits_pp, means_pp, precisions_pp)` (used by SNPE-C's non-atomic loss and the
MDN posterior) creates a fresh one-element tensor inside the function; since #1356 it is made on
`theta.device`, so `weights + constant + log_det + exponent` is all-cuda. A constant tensor built
from a Python float in a helper function looks like the device-code bug, but it is right.
Stand-in: `mog_log_prob`, `batched_mixture_vmv`, `batched_mixture_mv` verbatim; the mixture
parameters produced by a linear head on cuda (instead of pyknos' MDN).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from math import pi
import torch
from torch import nn, Tensor

def batched_mixture_vmv(matrix: Tensor, vector: Tensor) -> Tensor:
    return torch.einsum("bci, bci -> bc", vector, batched_mixture_mv(matrix, vector))

def batched_mixture_mv(matrix: Tensor, vector: Tensor) -> Tensor:
    return torch.einsum("bcij,bcj -> bci", matrix, vector)

def mog_log_prob(theta: Tensor, logits_pp: Tensor, means_pp: Tensor, precisions_pp: Tensor) -> Tensor:
    _, _, output_dim = means_pp.size()
    theta = theta.view(-1, 1, output_dim)

    weights = logits_pp - torch.logsumexp(logits_pp, dim=-1, keepdim=True)
    constant = -(output_dim / 2.0) * torch.log(
        torch.tensor([2 * pi], device=theta.device)
    )
    log_det = 0.5 * torch.log(torch.det(precisions_pp))
    theta_minus_mean = theta.expand_as(means_pp) - means_pp
    exponent = -0.5 * batched_mixture_vmv(precisions_pp, theta_minus_mean)

    return torch.logsumexp(weights + constant + log_det + exponent, dim=-1)

class MixtureHead(nn.Module):
    def __init__(self, x_dim=8, theta_dim=2, num_components=4):
        super().__init__()
        self.theta_dim, self.k = theta_dim, num_components
        self.logits = nn.Linear(x_dim, num_components)
        self.means = nn.Linear(x_dim, num_components * theta_dim)

    def forward(self, x):
        b = x.shape[0]
        eye = torch.eye(self.theta_dim, device=x.device)
        return (self.logits(x), self.means(x).view(b, self.k, self.theta_dim),
                eye.expand(b, self.k, self.theta_dim, self.theta_dim) * 4.0)

mdn_head = MixtureHead().to("cuda:0")
theta = torch.randn(32, 2, device="cuda:0")
x = torch.randn(32, 8, device="cuda:0")
'''
CELL = '''
logits_pp, means_pp, precisions_pp = mdn_head(x)
loss = -mog_log_prob(theta, logits_pp, means_pp, precisions_pp).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
