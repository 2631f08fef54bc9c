"""LightningModule with a custom loss: `penalty_factor = torch.ones(y_pred.size(0), dtype=torch.float32)` is made on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/17299
"The tensor storage device in the custom loss function is different from the model": training on the
GPU failed inside the user's custom loss at the line that builds `penalty_factor` with `torch.ones`
and no device ("error occur from this line"); Lightning moves the module and the batch, not tensors
created inside `forward`. awaelchli: pass `device=y_pred.device`. Stand-in: the loss around that line
(an asymmetric squared error that doubles the penalty on wrong-sign predictions), a LightningModule
reduced to `training_step`, and a batch already on the GPU as Lightning delivers it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class PenalizedMSELoss(nn.Module):
    def __init__(self, penalty=2.0):
        super().__init__()
        self.penalty = penalty

    def forward(self, y_pred, y_true):
        penalty_factor = torch.ones(
            y_pred.size(0), dtype=torch.float32,
        ) # error occur from this line
        wrong_sign = (y_pred * y_true) < 0
        penalty_factor = torch.where(wrong_sign, penalty_factor * self.penalty, penalty_factor)
        return torch.mean(penalty_factor * (y_pred - y_true) ** 2)

class ReturnPredictor(nn.Module):
    """pl.LightningModule stand-in: the parts used by the training loop."""
    def __init__(self, n_features=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.ReLU(), nn.Linear(32, 1))
        self.loss_fn = PenalizedMSELoss()

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_pred = self(x)
        return self.loss_fn(y_pred, y)

device = torch.device("cuda:0")
model = ReturnPredictor().to(device)                  # what Trainer(accelerator="gpu") does
batch = (torch.randn(16, 12).to(device), torch.randn(16).to(device))
'''
CELL = '''
loss = model.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.loss_fn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("y_pred.size(0), dtype=torch.float32,", "y_pred.size(0), dtype=torch.float32, device=y_pred.device")
CLEAN = False
