"""Metrics held in an `nn.ModuleDict` move with the model: the maintainers' layout, which runs.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/8775
The answer to the user who kept metrics in a plain dict: "use ModuleDict for these to be
automatically moved to the right device". A look-alike of that report: a model with a dict of
metric objects whose state tensors are separate from the weights, all on the GPU after one
`model.to()`; nothing is left behind.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        self.train_metrics = nn.ModuleDict({"mse": MeanSquaredError(num_outputs=3)})

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
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
