"""GPyTorch GP trained on `torch.from_numpy` arrays: the data are float64, every hyperparameter float32.

Source: https://github.com/cornellius-gp/gpytorch/issues/382
"TensorIterator expected type torch.DoubleTensor but got torch.FloatTensor": the user converted
NumPy training arrays with `torch.from_numpy` and trained the tutorial's exact GP. The
maintainer explained that NumPy defaults to float64 while the model's hyperparameters are float32
and recommended casting the data (`train_x = torch.from_numpy(train_x).float()`, same for
`train_y`), which fixed it. Stand-in: ExactGP / ScaleKernel(RBF, ARD) / Gaussian likelihood /
exact MLL in plain torch.
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

rng = np.random.default_rng(0)
X = rng.uniform(0, 5, size=(60, 2))
y = np.sin(X[:, 0]) + 0.1 * rng.standard_normal(60)
train_x = torch.from_numpy(X)
train_y = torch.from_numpy(y)

likelihood = GaussianLikelihood()
model = ExactGPModel(train_x, train_y, likelihood, ard_num_dims=2)
optimizer = torch.optim.Adam([{"params": model.parameters()}], lr=0.1)
mll = ExactMarginalLogLikelihood(likelihood, model)
'''
CELL = '''
optimizer.zero_grad()
output = model(train_x)
loss = -mll(output, train_y)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "expected m1 and m2 to have the same dtype")
CULPRITS = ["train_x"]
FIX = "namespace"
REFERENCE_FIX = '''
train_x = train_x.float()
train_y = train_y.float()
'''
REFERENCE_EDIT = None
CLEAN = False
