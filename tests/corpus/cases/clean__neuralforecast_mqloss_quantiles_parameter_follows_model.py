"""Look-alike: neuralforecast's fixed MQLoss keeps `quantiles` as a frozen Parameter, so it follows the model to the GPU.

Source: https://github.com/Nixtla/neuralforecast/issues/307
After the Colab-GPU report ("Expected all tensors to be on the same device" in `MQLoss.__call__`),
MQLoss became a `torch.nn.Module` holding `self.quantiles = torch.nn.Parameter(qs,
requires_grad=False)`; the model keeps the loss as `self.loss`, so the trainer's move to the GPU
carries the quantiles along. A tensor attribute on a loss object that looks left behind but is
registered: no finding. Stand-in: MQLoss and a small NHITS-like network.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MQLoss(nn.Module):
    def __init__(self, level=[80, 90]):
        super().__init__()
        qs = [0.5] + sorted(sum([[50 / 100 - l / 200, 50 / 100 + l / 200] for l in level], []))
        self.outputsize_multiplier = len(qs)
        self.quantiles = torch.nn.Parameter(torch.Tensor(qs), requires_grad=False)

    def __call__(self, y, y_hat, mask=None):
        if mask is None:
            mask = torch.ones_like(y_hat)
        error = y_hat - y.unsqueeze(-1)
        sq = torch.maximum(-error, torch.zeros_like(error))
        s1_q = torch.maximum(error, torch.zeros_like(error))
        mqloss = (self.quantiles * sq + (1 - self.quantiles) * s1_q)
        return (mqloss * mask).mean()

class NHITS(nn.Module):
    def __init__(self, h, input_size, loss, hidden=64):
        super().__init__()
        self.h = h
        self.loss = loss
        self.mlp = nn.Sequential(nn.Linear(input_size, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, h * loss.outputsize_multiplier)

    def forward(self, insample_y):
        out = self.head(self.mlp(insample_y))
        return out.view(insample_y.shape[0], self.h, self.loss.outputsize_multiplier)

horizon = 12
model = NHITS(h=horizon, input_size=2 * horizon, loss=MQLoss(level=[80, 90]))
model.to("cuda:0")
insample_y = torch.randn(32, 2 * horizon, device="cuda:0")
outsample_y = torch.randn(32, horizon, device="cuda:0")
'''
CELL = '''
y_hat = model(insample_y)
loss = model.loss(y=outsample_y, y_hat=y_hat)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
