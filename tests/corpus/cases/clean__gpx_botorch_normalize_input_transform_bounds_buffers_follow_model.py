"""Look-alike: BoTorch's `Normalize(d, bounds=...)` keeps the bounds built on the CPU as buffers; `model.to(cuda)` moves them.

Source: https://github.com/meta-pytorch/botorch/blob/main/botorch/models/transforms/input.py
A SingleTaskGP with `input_transform=Normalize(d=2, bounds=bounds)` where `bounds` was made on
the CPU looks like a stray CPU tensor beside a GPU model; but `Normalize` registers the offset and
coefficient as buffers, so `model.to(**tkwargs)` moves them with the parameters and transformed
cuda inputs meet cuda buffers. Stand-in: the Normalize buffers and a GP posterior mean.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Normalize(nn.Module):
    def __init__(self, d, bounds):
        super().__init__()
        self.register_buffer("_offset", bounds[:1].clone())
        self.register_buffer("_coefficient", (bounds[1:] - bounds[:1]).clone())

    def forward(self, X):
        return (X - self._offset) / self._coefficient

class SingleTaskGP(nn.Module):
    def __init__(self, train_X, train_Y, input_transform):
        super().__init__()
        self.input_transform = input_transform
        self.register_buffer("train_X", train_X)
        self.register_buffer("train_Y", train_Y)
        self.raw_lengthscale = nn.Parameter(torch.zeros(1, dtype=train_X.dtype))

    def posterior_mean(self, X):
        a, b = self.input_transform(X), self.input_transform(self.train_X)
        ls = torch.nn.functional.softplus(self.raw_lengthscale)
        K = torch.exp(-0.5 * ((a.unsqueeze(-2) - b.unsqueeze(-3)) ** 2).sum(-1) / ls ** 2)
        return K @ self.train_Y

bounds = torch.tensor([[-5.0, 0.0], [10.0, 15.0]], dtype=torch.double)     # on the CPU
train_X = bounds[0] + (bounds[1] - bounds[0]) * torch.rand(10, 2, dtype=torch.double)
train_Y = torch.rand(10, 1, dtype=torch.double)
tkwargs = {"dtype": torch.double, "device": torch.device("cuda:0")}
model = SingleTaskGP(train_X, train_Y, input_transform=Normalize(d=2, bounds=bounds)).to(**tkwargs)
test_X = torch.rand(5, 2, **tkwargs) * 10
'''
CELL = '''
with torch.no_grad():
    mean = model.posterior_mean(test_X)
print(mean.shape, model.input_transform._offset.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
