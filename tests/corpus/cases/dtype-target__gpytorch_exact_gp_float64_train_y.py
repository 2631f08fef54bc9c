"""GPyTorch exact GP: float32 inputs, float64 training targets from pandas.

Source: https://github.com/cornellius-gp/gpytorch/issues/2003
"I get 'RuntimeError: expected scalar type Float but found Double' but my input is already a
float?": `train_X` and `test_X` were float32 but `train_y` was float64 (a pandas column), and the
exact marginal log likelihood solves the float32 kernel matrix against the float64 targets. The
maintainer: all of them, and the model's parameters, must share one dtype; "try setting train_y to
be a float". Stand-in: an RBF exact GP whose marginal log likelihood does the Cholesky solve the way
GPyTorch's does for small problems; the data are made with the user's dtypes.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn

class ExactGPModel(nn.Module):
    def __init__(self, train_x, train_y):
        super().__init__()
        self.train_inputs, self.train_targets = (train_x,), train_y
        self.mean_constant = nn.Parameter(torch.zeros(()))
        self.raw_lengthscale = nn.Parameter(torch.zeros(()))
        self.raw_outputscale = nn.Parameter(torch.zeros(()))
        self.raw_noise = nn.Parameter(torch.tensor(-2.0))

    def forward(self, x):
        ls = nn.functional.softplus(self.raw_lengthscale)
        os_ = nn.functional.softplus(self.raw_outputscale)
        dist = torch.cdist(x / ls, x / ls).pow(2)
        covar = os_ * torch.exp(-0.5 * dist)
        return self.mean_constant.expand(x.shape[0]), covar

class ExactMarginalLogLikelihood:
    def __init__(self, model):
        self.model = model

    def __call__(self, output, target):
        mean, covar = output
        noise = nn.functional.softplus(self.model.raw_noise)
        K = covar + (noise + 1e-4) * torch.eye(covar.shape[0])
        L = torch.linalg.cholesky(K)
        diff = (target - mean).unsqueeze(-1)
        alpha = torch.cholesky_solve(diff, L)
        n = target.shape[-1]
        return -(0.5 * (diff * alpha).sum() + L.diagonal().log().sum() + 0.5 * n * math.log(2 * math.pi)) / n

rng = np.random.default_rng(0)
df = {"x1": rng.random(60), "x2": rng.random(60)}
df["y"] = np.sin(6 * df["x1"]) + 0.1 * rng.standard_normal(60)
train_X = torch.tensor(np.stack([df["x1"], df["x2"]], axis=1), dtype=torch.float32)
train_y = torch.tensor(df["y"])                 # float64, as pandas/numpy gave it
model = ExactGPModel(train_X, train_y)
mll = ExactMarginalLogLikelihood(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
'''
CELL = '''
model.train()
for i in range(5):
    optimizer.zero_grad()
    output = model(train_X)
    loss = -mll(output, train_y)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("Expected b and A to have the same dtype",
                "expected scalar type Float but found Double")
CULPRITS = ["train_y"]
FIX = "namespace"
REFERENCE_FIX = '''
train_y = train_y.float()
'''
REFERENCE_EDIT = None
CLEAN = False
