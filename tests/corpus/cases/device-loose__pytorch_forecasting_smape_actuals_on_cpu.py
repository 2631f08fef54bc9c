"""pytorch-forecasting: predictions come back on the GPU, the actuals gathered from the loader stay on the CPU.

Source: https://github.com/sktime/pytorch-forecasting/issues/1352
"SMAPE() Expected all tensors to be on the same device": following the tutorial, the user computed
`actuals = torch.cat([y[0] for x, y in iter(val_dataloader)])` and
`predictions = model.predict(val_dataloader)` on a GPU machine; the predictions were on cuda, the
actuals on the CPU, and `SMAPE()(predictions, actuals)` raised. The fix in the thread:
`.to(device)` on the actuals. Stand-ins: a loader of `(x, (y, weight))` batches and the metric.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class SMAPE(nn.Module):
    def forward(self, y_pred, target):
        return (2 * (y_pred - target).abs() / (y_pred.abs() + target.abs() + 1e-8)).mean()

class NBeatsLike(nn.Module):
    def __init__(self, enc_len=24, pred_len=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(enc_len, 64), nn.ReLU(), nn.Linear(64, pred_len))

    def predict(self, dataloader):
        device = next(self.parameters()).device
        return torch.cat([self.net(x["encoder_target"].to(device)) for x, _ in dataloader])

val_dataloader = [({"encoder_target": torch.randn(8, 24)}, (torch.randn(8, 6), None))
                  for _ in range(3)]
device = torch.device("cuda:0")
model = NBeatsLike().to(device)
actuals = torch.cat([y[0] for x, y in iter(val_dataloader)])
'''
CELL = '''
predictions = model.predict(val_dataloader)
smape = SMAPE()(predictions, actuals)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["actuals"]
FIX = "namespace"
REFERENCE_FIX = '''
actuals = actuals.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
