"""Look-alike: BoTorch closed-loop BO in float64, with a test function whose float32 constants are cast to the input.

Source: https://github.com/meta-pytorch/botorch/blob/main/tutorials/closed_loop_botorch_only/closed_loop_botorch_only.ipynb
The tutorial creates all data with `dtype=torch.double` (BoTorch recommends double) and scores
them with the Hartmann6 test function, whose coefficient tables are stored as float32 buffers and
cast with `.to(X)` when evaluated; the Standardize outcome transform keeps float64 statistics.
Mixed dtypes by design that run. Stand-in: Hartmann-like objective, outcome standardization and
a GP posterior mean on the CPU (dtype only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Hartmann(nn.Module):
    def __init__(self, dim=6):
        super().__init__()
        self.register_buffer("ALPHA", torch.tensor([1.0, 1.2, 3.0, 3.2]))
        self.register_buffer("A", torch.rand(4, dim) * 10)
        self.register_buffer("P", torch.rand(4, dim))

    def forward(self, X):
        inner = (self.A.to(X) * (X.unsqueeze(-2) - self.P.to(X)) ** 2).sum(-1)
        return -(self.ALPHA.to(X) * torch.exp(-inner)).sum(-1)

class Standardize(nn.Module):
    def forward(self, Y):
        self.means, self.stdvs = Y.mean(0, keepdim=True), Y.std(0, keepdim=True)
        return (Y - self.means) / self.stdvs

device = torch.device("cpu")
dtype = torch.double
neg_hartmann6 = Hartmann()
train_x = torch.rand(10, 6, device=device, dtype=dtype)
train_obj = neg_hartmann6(train_x).unsqueeze(-1)
outcome_transform = Standardize()
bounds = torch.tensor([[0.0] * 6, [1.0] * 6], device=device, dtype=dtype)
'''
CELL = '''
Y = outcome_transform(train_obj)
K = torch.exp(-0.5 * torch.cdist(train_x, train_x) ** 2) + 1e-4 * torch.eye(10, dtype=dtype)
alpha = torch.linalg.solve(K, Y)
cand = bounds[0] + (bounds[1] - bounds[0]) * torch.rand(32, 6, dtype=dtype)
pred = torch.exp(-0.5 * torch.cdist(cand, train_x) ** 2) @ alpha
new_obj = neg_hartmann6(cand.index_select(0, pred.squeeze(-1).argmax().reshape(1)))
print(pred.dtype, new_obj.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
