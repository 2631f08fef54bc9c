"""BLiTZ Bayesian SudokuSolver moved to the GPU: `constraint_mask` is a plain tensor attribute left on the CPU.

Source: https://github.com/piEsposito/blitz-bayesian-deep-learning/issues/9
"Do you have cuda support?": the user's `@variational_estimator` `SudokuSolver` stored
`self.constraint_mask = constraint_mask.unsqueeze(-1).unsqueeze(0)` as a plain attribute next to two
`BayesianLinear` layers; after `model.to(device)` the forward pass mixed the CUDA board with the CPU
mask ("Expected object of device type cuda but got device type cpu"). The Bayesian layers moved;
the mask, not a parameter or buffer, did not. Stand-in: BayesianLinear with mu/rho parameters and a
reparameterised weight sample; the forward reduced to one scoring step.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class BayesianLinear(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight_mu = nn.Parameter(torch.zeros(out_features, in_features))
        self.weight_rho = nn.Parameter(torch.full((out_features, in_features), -7.0))
    def forward(self, x):
        sigma = torch.log1p(torch.exp(self.weight_rho))
        w = self.weight_mu + sigma * torch.randn_like(sigma)
        return F.linear(x, w)

class SudokuSolver(nn.Module):
    def __init__(self, constraint_mask, n=9, hidden1=128):
        super().__init__()
        self.constraint_mask = constraint_mask.unsqueeze(-1).unsqueeze(0)
        self.n = n
        self.input_size = 3 * n
        self.l1 = BayesianLinear(self.input_size, hidden1, bias=False)
        self.a1 = nn.ReLU()
        self.l2 = BayesianLinear(hidden1, n, bias=False)
        self.softmax = nn.Softmax(dim=1)
    def forward(self, x):
        n = self.n
        bts = x.shape[0]
        c = self.constraint_mask
        constraint_mask_sum = (x.view(bts, 1, 1, n * n, n) * c).sum(dim=3)
        f = constraint_mask_sum.view(bts, n * n, 3 * n)
        return self.softmax(self.l2(self.a1(self.l1(f))).view(bts * n * n, n))

n = 9
constraint_mask = (torch.rand(n * n, 3, n * n) > 0.8).float()
device = torch.device("cuda:0")
model = SudokuSolver(constraint_mask).to(device)
boards = torch.zeros(4, n * n, n, device=device)
'''
CELL = '''
with torch.no_grad():
    pred = model(boards)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.constraint_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
model.constraint_mask = model.constraint_mask.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
