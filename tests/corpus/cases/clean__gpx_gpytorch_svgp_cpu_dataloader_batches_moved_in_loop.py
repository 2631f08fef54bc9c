"""Look-alike: GPyTorch SVGP on cuda trained from a CPU `TensorDataset`; each minibatch is moved in the loop.

Source: https://github.com/cornellius-gp/gpytorch/blob/main/examples/04_Variational_and_Approximate_GPs/SVGP_Regression_CUDA.ipynb
The tutorial keeps `train_x`/`train_y` in a CPU DataLoader while `model` and `likelihood` are
moved to the GPU (the inducing points are a Parameter of the variational strategy, so they move
too), and does `x_batch, y_batch = x_batch.cuda(), y_batch.cuda()` inside the loop: CPU data
beside a GPU model on purpose. Stand-in: a whitened-free variational strategy (inducing points,
variational mean) and a Gaussian predictive-mean loss; forward only.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class GPModel(nn.Module):
    def __init__(self, inducing_points):
        super().__init__()
        self.inducing_points = nn.Parameter(inducing_points)
        self.variational_mean = nn.Parameter(torch.zeros(inducing_points.shape[0]))
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        ls = torch.nn.functional.softplus(self.raw_lengthscale)
        K = torch.exp(-0.5 * ((x.unsqueeze(-2) - self.inducing_points.unsqueeze(-3)) ** 2).sum(-1) / ls ** 2)
        return K @ self.variational_mean

class GaussianLikelihood(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_noise = nn.Parameter(torch.zeros(1))

train_x = torch.rand(200, 3)
train_y = torch.sin(train_x.sum(-1))
# DataLoader(TensorDataset(train_x, train_y), batch_size=64): its iterator seeds with .item(), not
# possible in the fake-cuda simulation, so the same CPU minibatches are listed directly
train_loader = list(zip(train_x.split(64), train_y.split(64)))

inducing_points = train_x[:50, :]
model = GPModel(inducing_points=inducing_points)
likelihood = GaussianLikelihood()
model = model.to("cuda:0")
likelihood = likelihood.to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    for x_batch, y_batch in train_loader:
        x_batch, y_batch = x_batch.to("cuda:0"), y_batch.to("cuda:0")
        output = model(x_batch)
        noise = torch.nn.functional.softplus(likelihood.raw_noise)
        loss = (0.5 * (y_batch - output) ** 2 / noise + 0.5 * torch.log(noise)).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
