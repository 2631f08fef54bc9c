"""GPyTorch GP with derivative observations on float64 data: the gradient-kernel blocks are float32.

Source: https://github.com/cornellius-gp/gpytorch/issues/1225
"Kernel with gradients + double precision": the user fed NumPy-derived (float64) inputs and
function/derivative targets to the RBFKernelGrad example and got "expected dtype Double but got
dtype Float" from a lazy tensor `_matmul`. The maintainer's answer: everything works in double
if the data and the model are double (`train_x.double()`, `train_y.double()`,
`gp_model = gp_model.double()`). Stand-in: the example's model with an RBF-with-gradients
kernel whose derivative block multiplies by the (float32) inverse squared lengthscales.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import math
import torch
from torch import nn

class RBFKernel(nn.Module):
    def __init__(self, ard_num_dims=1):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1, ard_num_dims))

    def forward(self, x1, x2):
        inv_ls = torch.diag(torch.nn.functional.softplus(self.raw_lengthscale).reciprocal().squeeze(0))
        x1_, x2_ = x1 @ inv_ls, x2 @ inv_ls            # ARD scaling as a matmul
        return torch.exp(-0.5 * ((x1_.unsqueeze(-2) - x2_.unsqueeze(-3)) ** 2).sum(-1))

class ScaleKernel(nn.Module):
    def __init__(self, base_kernel):
        super().__init__()
        self.base_kernel = base_kernel
        self.raw_outputscale = nn.Parameter(torch.zeros(()))

    def forward(self, x1, x2):
        return torch.nn.functional.softplus(self.raw_outputscale) * self.base_kernel(x1, x2)

class ConstantMean(nn.Module):
    def __init__(self):
        super().__init__()
        self.constant = nn.Parameter(torch.zeros(()))

    def forward(self, x):
        return self.constant.expand(x.shape[:-1])

class GaussianLikelihood(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_noise = nn.Parameter(torch.zeros(1))

    @property
    def noise(self):
        return torch.nn.functional.softplus(self.raw_noise)

class ExactMarginalLogLikelihood:
    def __init__(self, likelihood, model):
        self.likelihood, self.model = likelihood, model

    def __call__(self, output, target):
        mean, covar = output
        K = covar + self.likelihood.noise * torch.eye(covar.shape[-1], dtype=covar.dtype)
        L = torch.linalg.cholesky(K)
        diff = (target - mean).unsqueeze(-1)
        alpha = torch.cholesky_solve(diff, L)
        return (-0.5 * (diff * alpha).sum() - L.diagonal().log().sum()) / target.shape[-1]

class ExactGPModel(nn.Module):
    def __init__(self, train_x, train_y, likelihood, ard_num_dims=1):
        super().__init__()
        self.train_inputs, self.train_targets, self.likelihood = (train_x,), train_y, likelihood
        self.mean_module = ConstantMean()
        self.covar_module = ScaleKernel(RBFKernel(ard_num_dims))

    def forward(self, x):
        return self.mean_module(x), self.covar_module(x, x)

class RBFKernelGrad(RBFKernel):
    def forward(self, x1, x2):
        K = super().forward(x1, x2)
        ls = torch.nn.functional.softplus(self.raw_lengthscale).squeeze(0)
        diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)                 # n x m x d
        K_grad = (diff @ torch.diag(ls.pow(-2))) * K.unsqueeze(-1)   # d/dx2 of K
        return torch.cat([K, K_grad.flatten(-2)], dim=-1)

class GPModelWithDerivatives(ExactGPModel):
    def __init__(self, train_x, train_y, likelihood):
        super().__init__(train_x, train_y, likelihood, ard_num_dims=2)
        self.covar_module = ScaleKernel(RBFKernelGrad(ard_num_dims=2))

    def forward(self, x):
        K = self.covar_module(x, x)
        return self.mean_module(x), K

xv, yv = np.meshgrid(np.linspace(0, 1, 5), np.linspace(0, 1, 5))
X = np.stack([xv.ravel(), yv.ravel()], -1)
train_x = torch.from_numpy(X)
train_y = torch.from_numpy(np.stack([np.sin(X[:, 0]), np.cos(X[:, 0]), np.zeros(25)], -1))
likelihood = GaussianLikelihood()
gp_model = GPModelWithDerivatives(train_x, train_y, likelihood)
'''
CELL = '''
mean_x, covar_x = gp_model(train_x)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "expected m1 and m2 to have the same dtype")
CULPRITS = ["gp_model"]
FIX = "namespace"
REFERENCE_FIX = '''
gp_model = gp_model.double()
'''
REFERENCE_EDIT = None
CLEAN = False
