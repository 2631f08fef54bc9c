"""GPyTorch exact GP regression with float64 training data: the RBF kernel's hyperparameters are float32.

Source: https://github.com/cornellius-gp/gpytorch/issues/648
"float64 using RBF kernel in simple regression": the user built `train_x = torch.linspace(0, 1,
100, dtype=torch.float64)` and a float64 `train_y`, then the tutorial's `ExactGPModel` and
`GaussianLikelihood`; the kernel computation fails where the float64 inputs meet the float32
lengthscale. The maintainer's answer: call `model.double()` and `likelihood.double()` after
creating them; that fixed it. Stand-in: GPyTorch's ExactGP / ScaleKernel(RBF) / Gaussian
likelihood / exact MLL in plain torch, with the ARD lengthscale applied as a matmul.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
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

train_x = torch.linspace(0, 1, 100, dtype=torch.float64).unsqueeze(-1)
train_y = torch.sin(train_x.squeeze(-1) * (2 * math.pi)) + torch.randn(100, dtype=torch.float64) * 0.2

likelihood = GaussianLikelihood()
model = ExactGPModel(train_x, train_y, likelihood)
model.train()
likelihood.train()
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
mll = ExactMarginalLogLikelihood(likelihood, model)
'''
CELL = '''
for i in range(3):
    optimizer.zero_grad()
    output = model(train_x)
    loss = -mll(output, train_y)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "expected m1 and m2 to have the same dtype")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.double()
likelihood.double()
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
'''
REFERENCE_EDIT = None
CLEAN = False
