"""Metric objects kept in a plain dict on a LightningModule stay on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/8775
The user stored torchmetrics metrics in a Python dict (`self.train_metrics = {...}`) and updated
them in the training step; on the GPU the update failed because the metrics' state tensors were
still on the CPU. A dict is not a registered child, so moving the module never moved them; the
maintainers' answer: use `nn.ModuleDict` (same report: pytorch-lightning issue 17624). The metric
is a stand-in with torchmetrics' structure: per-output state tensors registered on a Module.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class MeanSquaredError(nn.Module):
    """Stand-in for torchmetrics.MeanSquaredError(num_outputs=...): state lives in buffers."""
    def __init__(self, num_outputs=1):
        super().__init__()
        self.register_buffer("sum_squared_error", torch.zeros(num_outputs))
        self.register_buffer("total", torch.zeros(num_outputs))

    def forward(self, preds, target):
        self.sum_squared_error += ((preds - target) ** 2).sum(0)
        self.total += torch.ones_like(target).sum(0)
        return self.sum_squared_error / self.total

class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
        self.train_metrics = {"mse": MeanSquaredError(num_outputs=3)}

    def training_step(self, batch, batch_idx):
        x, y = batch
        output = self.net(x)
        for k, m in self.train_metrics.items():
            m(output, y)
        return ((output - y) ** 2).mean()

model = Regressor().to("cuda:0")
batch = (torch.randn(16, 10, device="cuda:0"), torch.randn(16, 3, device="cuda:0"))
'''
CELL = '''
loss = model.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.train_metrics['mse']"]
FIX = "namespace"
REFERENCE_FIX = '''
model.train_metrics["mse"].to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
