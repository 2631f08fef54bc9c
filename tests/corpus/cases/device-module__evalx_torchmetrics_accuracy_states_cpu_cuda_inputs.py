"""torchmetrics `Accuracy()` called on cuda:0 predictions and targets: its `correct`/`total` states were created on the CPU.

Source: https://github.com/Lightning-AI/torchmetrics/issues/167
The reporter builds `a = torch.randint(3, size=(10,), device=cuda0)`, `b` likewise,
`accuracy = Accuracy()` and calls `accuracy(a, b)`; `update` adds the per-batch counts into the
`self.correct`/`self.total` states, which `add_state` created on the CPU. Maintainers: a metric is a
`nn.Module`, it must be moved to the inputs' device (`accuracy.to(cuda0)`, or registered as a child of
a LightningModule so it moves with the model).
Stand-in: `Metric` with `add_state` registering the states as buffers (torchmetrics moves them in
`_apply` the same way), `Accuracy.update` reduced to label equality counts.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Metric(nn.Module):
    def __init__(self):
        super().__init__()
        self._defaults = {}

    def add_state(self, name, default, dist_reduce_fx=None):
        self._defaults[name] = default.clone()
        self.register_buffer(name, default)

    def forward(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()

class Accuracy(Metric):
    def __init__(self):
        super().__init__()
        self.add_state("correct", default=torch.zeros(1, dtype=torch.long), dist_reduce_fx="sum")
        self.add_state("total", default=torch.zeros(1, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, preds, target):
        assert preds.shape == target.shape
        self.correct += torch.sum(preds == target).reshape(1)
        self.total += torch.full((1,), target.numel(), dtype=torch.long, device=target.device)

    def compute(self):
        return self.correct.float() / self.total

cuda0 = torch.device('cuda:0')
a = torch.randint(3, size=(10,), device=cuda0)
b = torch.randint(3, size=(10,), device=cuda0)
accuracy = Accuracy()
'''
CELL = '''
acc = accuracy(a, b)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["accuracy"]
FIX = "namespace"
REFERENCE_FIX = '''
accuracy = accuracy.to(cuda0)
'''
REFERENCE_EDIT = None
CLEAN = False
