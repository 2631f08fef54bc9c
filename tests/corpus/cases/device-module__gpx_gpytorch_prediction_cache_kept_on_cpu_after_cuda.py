"""GPyTorch ExactGP evaluated on the CPU, then moved to the GPU: the cached prediction strategy stays on the CPU.

Source: https://github.com/cornellius-gp/gpytorch/issues/1619
"Moving GP From CPU -> GPU after running it on CPU causes error": the user builds a `PlainGP`,
calls `model.eval()` and predicts on the CPU, then `model.cuda()` and `model(X_train.cuda())`
fails. The first eval-mode call caches a `prediction_strategy` (train-train covariance solve,
mean cache) as a plain attribute; `.cuda()` moves parameters and training data but not that cache.
Clearing it (`model.prediction_strategy = None`, or `model.train()` then `model.eval()`) lets the
model rebuild it on the GPU.
Stand-in: ExactGP with an `_apply` that moves the train data, RBF kernel and a cached mean solve.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class PredictionStrategy:
    def __init__(self, train_x, train_y, covar):
        K = covar(train_x, train_x) + 1e-2 * torch.eye(train_x.shape[0], dtype=train_x.dtype, device=train_x.device)
        self.mean_cache = torch.linalg.solve(K, train_y.unsqueeze(-1)).squeeze(-1)

class RBFKernel(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))

    def forward(self, x1, x2):
        ls = torch.nn.functional.softplus(self.raw_lengthscale)
        return torch.exp(-0.5 * ((x1.unsqueeze(-2) - x2.unsqueeze(-3)) ** 2).sum(-1) / ls ** 2)

class PlainGP(nn.Module):
    def __init__(self, train_x, train_y):
        super().__init__()
        self.train_inputs, self.train_targets = (train_x,), train_y
        self.covar_module = RBFKernel()
        self.prediction_strategy = None

    def _apply(self, fn):
        self.train_inputs = tuple(fn(t) for t in self.train_inputs)
        self.train_targets = fn(self.train_targets)
        return super()._apply(fn)

    def train(self, mode=True):
        if mode:
            self.prediction_strategy = None
        return super().train(mode)

    def forward(self, x):
        train_x = self.train_inputs[0]
        if self.prediction_strategy is None:
            self.prediction_strategy = PredictionStrategy(train_x, self.train_targets, self.covar_module)
        return self.covar_module(x, train_x) @ self.prediction_strategy.mean_cache

X_train = torch.linspace(-1, 1, 100).reshape(-1, 1)
y_train = torch.linspace(-1, 1, 100)
model = PlainGP(X_train, y_train)
model.eval()
X_test = torch.linspace(-1, 1, 100).reshape(-1, 1)
with torch.no_grad():
    preds = model(X_test)
model.to("cuda:0")          # model.cuda() in the report
'''
CELL = '''
with torch.no_grad():
    preds_gpu = model(X_train.to("cuda:0"))
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["model.prediction_strategy"]
FIX = "namespace"
REFERENCE_FIX = '''
model.prediction_strategy = None
'''
REFERENCE_EDIT = None
CLEAN = False
