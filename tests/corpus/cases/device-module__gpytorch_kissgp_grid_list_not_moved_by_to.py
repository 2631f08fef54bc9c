"""GPyTorch 0.3.6 KISS-GP tutorial on CUDA: the interpolation grid is a plain list of tensors, so `model.to('cuda:0')` leaves it on the CPU.

Source: https://github.com/cornellius-gp/gpytorch/issues/981
"in version 0.3.6, the kissGP example cannot be put on CUDA": with the likelihood and the
GPRegressionModel moved by `.to('cuda:0')`, the training loop failed inside the grid interpolation.
The reporter got it running by "forcing whatever my gpytorch was complaining about on GPU, namely
... `x_grid = [xg.to('cuda:0') for xg in x_grid]`" in `Interpolation.interpolate`: the
GridInterpolationKernel held its grid as a Python list of tensors, which `Module.to()` does not
visit. Stand-in: ExactGP/GaussianLikelihood/ScaleKernel/RBF reduced, GridInterpolationKernel with
linear (instead of cubic) interpolation weights, an exact marginal log likelihood with a Cholesky
solve, the loop without its `loss.item()` print; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class GaussianLikelihood(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_noise = nn.Parameter(torch.tensor([-2.0]))
    @property
    def noise(self):
        return F.softplus(self.raw_noise)

class RBFKernel(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))
    def forward(self, x1, x2):
        ls = F.softplus(self.raw_lengthscale)
        return torch.exp(-0.5 * torch.cdist(x1 / ls, x2 / ls) ** 2)

class GridInterpolationKernel(nn.Module):
    def __init__(self, base_kernel, grid_size, num_dims, grid_bounds=((-0.1, 1.1),)):
        super().__init__()
        self.base_kernel = base_kernel
        self.grid = [torch.linspace(lo, hi, grid_size) for lo, hi in grid_bounds]   # a list, not buffers

    def _interp_weights(self, x_target):
        x_grid = self.grid[0]
        grid_min, grid_max = x_grid.min(), x_grid.max()
        n = x_grid.shape[0]
        pos = (x_target.squeeze(-1) - grid_min) / (grid_max - grid_min) * (n - 1)
        lower = pos.floor().clamp(0, n - 2)
        frac = (pos - lower).unsqueeze(-1)
        lo = F.one_hot(lower.long(), n).to(x_target.dtype)
        hi = F.one_hot(lower.long() + 1, n).to(x_target.dtype)
        return lo * (1 - frac) + hi * frac

    def forward(self, x1, x2):
        grid = self.grid[0].unsqueeze(-1)
        k_uu = self.base_kernel(grid, grid)
        return self._interp_weights(x1) @ k_uu @ self._interp_weights(x2).T

class ScaleKernel(nn.Module):
    def __init__(self, base_kernel):
        super().__init__()
        self.base_kernel = base_kernel
        self.raw_outputscale = nn.Parameter(torch.zeros(1))
    def forward(self, x1, x2):
        return F.softplus(self.raw_outputscale) * self.base_kernel(x1, x2)

class GPRegressionModel(nn.Module):
    def __init__(self, train_x, train_y, likelihood):
        super().__init__()
        self.train_inputs, self.train_targets, self.likelihood = (train_x,), train_y, likelihood
        self.mean_constant = nn.Parameter(torch.zeros(1))
        self.covar_module = ScaleKernel(GridInterpolationKernel(RBFKernel(), grid_size=100, num_dims=1))
    def forward(self, x):
        return self.mean_constant.expand(x.shape[0]), self.covar_module(x, x)

class ExactMarginalLogLikelihood(nn.Module):
    def __init__(self, likelihood, model):
        super().__init__()
        self.likelihood, self.model = likelihood, model
    def forward(self, output, target):
        mean, covar = output
        K = covar + (self.likelihood.noise + 1e-4) * torch.eye(covar.shape[0], device=covar.device)
        L = torch.linalg.cholesky(K)
        diff = (target - mean).unsqueeze(-1)
        alpha = torch.cholesky_solve(diff, L)
        n = target.shape[0]
        return -(0.5 * (diff * alpha).sum() + L.diagonal().log().sum() + 0.5 * n * math.log(2 * math.pi)) / n

x_tr = torch.linspace(0, 1, 200).unsqueeze(-1).to('meta')          # the GPU, simulated with meta
y_tr = torch.sin(x_tr.squeeze(-1) * (4 * math.pi)).to('meta')
ll = GaussianLikelihood().to('meta')
m = GPRegressionModel(x_tr, y_tr, ll)
m = m.to('meta')
'''
CELL = '''
m.train()
ll.train()
opt = torch.optim.Adam([{'params': m.parameters()}], lr=0.1)
mll = ExactMarginalLogLikelihood(ll, m)
training_iterations = 3
for i in range(training_iterations):
    opt.zero_grad()
    output = m(x_tr)
    loss = -mll(output, y_tr)
    loss.backward()
    opt.step()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["m.covar_module.base_kernel.grid"]
FIX = "namespace"
REFERENCE_FIX = '''
m.covar_module.base_kernel.grid = [xg.to('meta') for xg in m.covar_module.base_kernel.grid]
'''
REFERENCE_EDIT = None
CLEAN = False
