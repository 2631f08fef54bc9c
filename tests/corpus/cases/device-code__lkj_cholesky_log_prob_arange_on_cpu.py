"""LKJCholesky prior evaluated on a CUDA Cholesky factor: `log_prob` builds its `order` vector on the CPU.

Source: https://github.com/pytorch/pytorch/issues/58774
"LKJCholesky Error on GPU": `torch.distributions.LKJCholesky(dim=2, concentration=1).log_prob(
torch.eye(2).to("cuda"))` raised "Expected all tensors to be on the same device, but found at least
two devices, cuda:0 and cpu!". In PyTorch 1.8 `log_prob` made `order = torch.arange(2, self.dim + 1)`
with no device and multiplied it with the diagonal of the CUDA value (the concentration, given as a
Python number, is a CPU tensor too and is folded into `order`). Stand-in: that `log_prob` (the
diagonal's tail taken with `narrow` instead of `[..., 1:]`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch

class LKJCholesky:
    """torch.distributions.LKJCholesky.log_prob as shipped in PyTorch 1.8 (reduced)."""
    def __init__(self, dim, concentration=1.):
        self.dim = dim
        self.concentration = torch.as_tensor(concentration, dtype=torch.float32)

    def log_prob(self, value):
        diag_elems = value.diagonal(dim1=-1, dim2=-2).narrow(-1, 1, self.dim - 1)
        order = torch.arange(2, self.dim + 1)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = torch.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        normalize_term = pi_constant + numerator - denominator
        return unnormalized_log_pdf - normalize_term

device = torch.device("cuda:0")
prior = LKJCholesky(dim=3, concentration=1.)
L = torch.eye(3).to(device)
'''
CELL = '''
lp = prior.log_prob(L)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["order"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "order = torch.arange(2, self.dim + 1)\n        order = 2 * (self.concentration - 1)",
    "order = torch.arange(2, self.dim + 1, device=value.device)\n"
    "        order = 2 * (self.concentration.to(value.device) - 1)",
)
CLEAN = False
