"""NeuralProphet PinballLoss (current): quantile weights and the median multiplier are made in `forward` on `target.device`.

Source: https://github.com/ourownstory/neural_prophet/blob/main/neuralprophet/custom_loss_metrics.py
`PinballLoss.forward` keeps `self.quantiles` as a Python list and builds
`torch.tensor(self.quantiles, device=target.device, dtype=torch.float32)` and
`torch.ones(size=(1, 1, len(self.quantiles)), device=target.device, ...)` on every call, then
writes `multiplier[:, :, 0] = 2`. Look-alike: tensors created inside a loss's forward from Python
values, which run on a GPU batch because they take the target's device. Stand-ins: PinballLoss as
in neuralprophet, the SmoothL1 base loss, and a small AR-net output on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.modules.loss import _Loss

class PinballLoss(_Loss):
    """Class for the PinBall loss for quantile regression"""

    def __init__(self, loss_func, quantiles):
        super().__init__()
        self.loss_func = loss_func
        self.quantiles = quantiles

    def forward(self, outputs, target):
        target = target.repeat(1, 1, len(self.quantiles))  # increase the quantile dimension of the targets
        differences = target - outputs
        base_losses = self.loss_func(outputs, target).float()  # dimensions - [n_batch, n_forecasts, no. of quantiles]
        quantiles_tensor = (
            torch.tensor(self.quantiles, device=target.device, dtype=torch.float32).unsqueeze(dim=0).unsqueeze(dim=0)
        )
        positive_losses = quantiles_tensor * base_losses
        negative_losses = (1 - quantiles_tensor) * base_losses
        differences = differences.float()
        pinball_losses = torch.where(differences >= 0, positive_losses, negative_losses)
        multiplier = torch.ones(size=(1, 1, len(self.quantiles)), device=target.device, dtype=torch.float32)
        multiplier[:, :, 0] = 2
        pinball_losses = multiplier * pinball_losses  # double the loss for the median quantile
        return pinball_losses

quantiles = [0.5, 0.1, 0.9]
loss_func = PinballLoss(loss_func=torch.nn.SmoothL1Loss(reduction="none"), quantiles=quantiles)
device = torch.device("cuda:0")
ar_net = nn.Sequential(nn.Linear(14, 32), nn.ReLU(), nn.Linear(32, 3 * len(quantiles))).to(device)
lags = torch.randn(32, 14).to(device)
targets = torch.randn(32, 3, 1).to(device)
'''
CELL = '''
predicted = ar_net(lags).view(-1, 3, len(quantiles))
loss = loss_func(predicted, targets).sum(dim=2).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
