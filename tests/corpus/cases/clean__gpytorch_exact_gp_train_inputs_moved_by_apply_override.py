"""Look-alike: a GPyTorch ExactGP keeps its training data as plain attributes, yet `.cuda()` moves them.

Source: https://github.com/cornellius-gp/gpytorch/blob/main/gpytorch/models/exact_gp.py
`ExactGP` stores `train_inputs`/`train_targets` as ordinary attributes (a tuple and a tensor, not
buffers), which looks like the classic "tensor attribute that Module.to() never sees"; but it
overrides `_apply` to send them through the same function, so the GPyTorch tutorials' `model =
model.cuda(); likelihood = likelihood.cuda()` puts everything on the GPU. Prediction concatenates
the training and test inputs: no finding expected. Stand-in: ExactGP's `_apply` override and an
RBF-kernel posterior mean.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class ExactGP(nn.Module):
    def __init__(self, train_inputs, train_targets, likelihood):
        super().__init__()
        self.train_inputs = (train_inputs,)
        self.train_targets = train_targets
        self.likelihood = likelihood

    def _apply(self, fn):
        if self.train_inputs is not None:
            self.train_inputs = tuple(fn(train_input) for train_input in self.train_inputs)
            self.train_targets = fn(self.train_targets)
        return super()._apply(fn)

class GaussianLikelihood(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_noise = nn.Parameter(torch.full((1,), -2.0))

    @property
    def noise(self):
        return torch.nn.functional.softplus(self.raw_noise)

class ExactGPModel(ExactGP):
    def __init__(self, train_x, train_y, likelihood):
        super().__init__(train_x, train_y, likelihood)
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))

    def kernel(self, a, b):
        ls = torch.nn.functional.softplus(self.raw_lengthscale)
        return torch.exp(-0.5 * torch.cdist(a, b) ** 2 / ls ** 2)

    def predict_mean(self, test_x):
        train_x = self.train_inputs[0]
        full_x = torch.cat([train_x, test_x], dim=0)
        K = self.kernel(full_x, full_x)
        n = train_x.shape[0]
        K_tt = K.narrow(0, 0, n).narrow(1, 0, n) + self.likelihood.noise * torch.eye(n, device=K.device)
        K_st = K.narrow(0, n, test_x.shape[0]).narrow(1, 0, n)
        alpha = torch.linalg.solve(K_tt, self.train_targets.unsqueeze(-1))
        return (K_st @ alpha).squeeze(-1)

train_x = torch.linspace(0, 1, 50).unsqueeze(-1)
train_y = torch.sin(train_x.squeeze(-1) * 6.28) + 0.1 * torch.randn(50)
likelihood = GaussianLikelihood()
model = ExactGPModel(train_x, train_y, likelihood)
model = model.to("cuda:0")                               # model = model.cuda()
# (the tutorials also call likelihood.cuda(); the likelihood is a child module, already moved)
test_x = torch.linspace(0, 1, 20).unsqueeze(-1).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    mean = model.predict_mean(test_x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
