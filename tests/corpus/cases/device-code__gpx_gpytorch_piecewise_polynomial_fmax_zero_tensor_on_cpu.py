"""GPyTorch `PiecewisePolynomialKernel` on the GPU: `fmax` compares with a CPU `torch.tensor(0.0)`.

Source: https://github.com/cornellius-gp/gpytorch/issues/2199
The user swapped the RBF base kernel of the multi-GPU Exact GP example for a
`PiecewisePolynomialKernel` and got "tensors are not on the same device". The maintainer traced it
to `fmax`: `torch.max(torch.tensor(0.0), 1 - r)` builds the zero without the dtype/device of `r`;
the fix (#2217) creates it with `dtype=r.dtype, device=r.device` (and `j` likewise).
Stand-in: the kernel's forward with q=2 on a scaled distance matrix; the zero is a one-element
tensor as in the shape-broadcast path.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class PiecewisePolynomialKernel(nn.Module):
    def __init__(self, q=2):
        super().__init__()
        self.q = q
        self.raw_lengthscale = nn.Parameter(torch.zeros(1, 1))

    def fmax(self, r, j, q):
        return torch.max(torch.tensor([0.0]), 1 - r).pow(j + q)

    def get_cov(self, r, j, q):
        return (j + 1) * r + 1 if q == 1 else (1 + (j + 2) * r + ((j ** 2 + 4 * j + 3) / 3.0) * r ** 2)

    def forward(self, x1, x2):
        lengthscale = torch.nn.functional.softplus(self.raw_lengthscale)
        r = torch.cdist(x1.div(lengthscale), x2.div(lengthscale))
        j = x1.shape[-1] // 2 + self.q + 1
        return self.fmax(r, j, self.q) * self.get_cov(r, j, self.q)

output_device = torch.device("cuda:0")
train_x = torch.rand(50, 4).to(output_device)
covar_module = PiecewisePolynomialKernel(q=2).to(output_device)
'''
CELL = '''
with torch.no_grad():
    K = covar_module(train_x, train_x)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["covar_module"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.max(torch.tensor([0.0]), 1 - r)",
                  "torch.max(torch.tensor([0.0], dtype=r.dtype, device=r.device), 1 - r)")
CLEAN = False
