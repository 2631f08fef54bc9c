"""sbi `mog_log_prob` builds its Gaussian normalising constant with `torch.tensor([2 * pi])` on the CPU and adds it to the cuda mixture weights (multi-round SNPE-C with an MDN on cuda).

Source: https://github.com/sbi-dev/sbi/issues/1343
"constant.device in mog_log_prob remains on cpu": with everything on cuda, the user printed the
devices inside `mog_log_prob` — theta, logits_pp, means_pp, precisions_pp, weights, log_det,
exponent all cuda:0, "constant.device in mog_log_prob = cpu //this one". The maintainer: "this
looks like a bug, `constant` should be created on the current device"; the fix (#1356) writes
`torch.log(torch.tensor([2 * pi], device=theta.device))`.
Stand-in: `mog_log_prob`, `batched_mixture_vmv` and `batched_mixture_mv` from sbi/utils/sbiutils.py
(v0.23) verbatim; the MDN that yields the proposal-posterior mixture (logits, means, precisions)
reduced to a linear head on an embedded `x`, as SNPE-C's non-atomic loss would pass them.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from math import pi
import torch
from torch import nn, Tensor

def batched_mixture_vmv(matrix: Tensor, vector: Tensor) -> Tensor:
    return torch.einsum("bci, bci -> bc", vector, batched_mixture_mv(matrix, vector))

def batched_mixture_mv(matrix: Tensor, vector: Tensor) -> Tensor:
    return torch.einsum("bcij,bcj -> bci", matrix, vector)

def mog_log_prob(theta: Tensor, logits_pp: Tensor, means_pp: Tensor, precisions_pp: Tensor) -> Tensor:
    """Returns the log-probability of parameter sets theta under a mixture of Gaussians."""
    _, _, output_dim = means_pp.size()
    theta = theta.view(-1, 1, output_dim)

    # Split up evaluation into parts.
    weights = logits_pp - torch.logsumexp(logits_pp, dim=-1, keepdim=True)
    constant = -(output_dim / 2.0) * torch.log(torch.tensor([2 * pi]))
    log_det = 0.5 * torch.log(torch.det(precisions_pp))
    theta_minus_mean = theta.expand_as(means_pp) - means_pp
    exponent = -0.5 * batched_mixture_vmv(precisions_pp, theta_minus_mean)

    return torch.logsumexp(weights + constant + log_det + exponent, dim=-1)

class MixtureHead(nn.Module):
    """Stand-in for the MDN's mixture-parameter head (pyknos MultivariateGaussianMDN)."""
    def __init__(self, x_dim=8, theta_dim=3, num_components=5):
        super().__init__()
        self.theta_dim, self.k = theta_dim, num_components
        self.logits = nn.Linear(x_dim, num_components)
        self.means = nn.Linear(x_dim, num_components * theta_dim)

    def forward(self, x):
        b = x.shape[0]
        eye = torch.eye(self.theta_dim, device=x.device)
        precisions = eye.expand(b, self.k, self.theta_dim, self.theta_dim) * 2.0
        return self.logits(x), self.means(x).view(b, self.k, self.theta_dim), precisions

device = torch.device("cuda:0")
mdn_head = MixtureHead().to(device)
theta = torch.randn(16, 3, device=device)
experiment_data = torch.randn(16, 8, device=device)
logits_pp, means_pp, precisions_pp = mdn_head(experiment_data)
'''
CELL = '''
log_prob_proposal_posterior = mog_log_prob(theta, logits_pp, means_pp, precisions_pp)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mog_log_prob"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("constant = -(output_dim / 2.0) * torch.log(torch.tensor([2 * pi]))",
                  "constant = -(output_dim / 2.0) * torch.log(torch.tensor([2 * pi], device=theta.device))")
CLEAN = False
