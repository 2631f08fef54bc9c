"""torchmetrics Accuracy created and called with `.cuda()` inputs: its states were never moved.

Source: https://github.com/Lightning-AI/torchmetrics/issues/917
"Accuracy, Precision, Recall raises RuntimeError when device="cuda"": in a notebook the user built
`preds` and `target` tensors, created `accuracy = torchmetrics.Accuracy()` and called
`accuracy(preds.cuda(), target.cuda())`, which failed in `Metric.update`. The metric keeps its
counters as states created on the CPU; they follow the metric only when the metric itself is moved
(`accuracy.to("cuda")`, or creating it on the device). Stand-in: a minimal `Metric` whose
`add_state` tensors are moved by `_apply`, and a multilabel `Accuracy.update` (threshold 0.5).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class Metric(nn.Module):
    def __init__(self):
        super().__init__()
        self._defaults = {}

    def add_state(self, name, default):
        self._defaults[name] = default
        setattr(self, name, default.clone())

    def _apply(self, fn, *args, **kwargs):
        this = super()._apply(fn, *args, **kwargs)
        for key in self._defaults:
            setattr(this, key, fn(getattr(this, key)))
        return this

    def forward(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()

class Accuracy(Metric):
    def __init__(self, threshold=0.5):
        super().__init__()
        self.threshold = threshold
        self.add_state("correct", default=torch.tensor(0))
        self.add_state("total", default=torch.tensor(0))

    def update(self, preds, target):
        preds = (preds >= self.threshold).long()
        self.correct += torch.sum(preds == target)
        self.total += target.numel()

    def compute(self):
        return self.correct.float() / self.total

class torchmetrics:          # stand-in namespace for `import torchmetrics`
    Accuracy = Accuracy

preds  = torch.tensor([[0.6, 0.9, 0.3, 0, 0, 0, 0, 0.6],
                       [0.1, 0.6, 0.1, 0, 0, 0, 0, 0]])
target = torch.tensor([[0, 1, 1, 0, 0, 0, 0, 0],
                       [1, 1, 0, 0, 0, 0, 0, 1]])
accuracy = torchmetrics.Accuracy()
'''
CELL = '''
acc = accuracy(preds.to("cuda:0"), target.to("cuda:0"))      # accuracy(preds.cuda(), target.cuda())
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "wrapped to wrong device")
CULPRITS = ["accuracy"]
FIX = "namespace"
REFERENCE_FIX = '''
accuracy = accuracy.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
