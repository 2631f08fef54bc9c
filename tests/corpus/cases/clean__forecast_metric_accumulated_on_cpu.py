"""Look-alike: forecasts made on the GPU, the metric accumulated on the CPU from `.cpu()` copies.

Source: https://github.com/sktime/pytorch-forecasting/issues/1352
The other way out of the SMAPE device error discussed there: leave the actuals gathered from the
loader on the CPU and bring each batch's predictions over with `.cpu()` before the metric. A CPU
running total next to a cuda model, fed CPU values: nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class SMAPE(nn.Module):
    def forward(self, y_pred, target):
        return (2 * (y_pred - target).abs() / (y_pred.abs() + target.abs() + 1e-8)).mean()

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 6)).to(device)
val_dataloader = [({"encoder_target": torch.randn(8, 24)}, (torch.randn(8, 6), None))
                  for _ in range(3)]
metric = SMAPE()
total = torch.zeros(())
n_batches = 0
'''
CELL = '''
with torch.no_grad():
    for x, (y, weight) in val_dataloader:
        y_hat = model(x["encoder_target"].to(device))
        total += metric(y_hat.cpu(), y)
        n_batches += 1
smape = total / n_batches
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
