"""pytorch-widedeep Trainer given torchmetrics objects: the metrics in its list stay on the CPU.

Source: https://github.com/jrzaurin/pytorch-widedeep/issues/231
`Trainer(model, objective="binary", metrics=[BinaryAUROC(), BinaryPrecision(), BinaryRecall()])`
on CUDA failed in `_get_score` -> `MultipleMetrics.__call__` -> `metric.update(y_pred, y_true.int())`
("Expected all tensors to be on the same device, ... cuda:0 and cpu!"): the Trainer moves the model
but keeps the user's metric objects, with their CPU states, in a plain list. Stand-in: the Trainer's
`MultipleMetrics` wrapper holding the list, and two binary stat-score metrics with CPU states.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BinaryStatScores(nn.Module):
    def __init__(self, threshold=0.5):
        super().__init__()
        self.threshold = threshold
        self.register_buffer("tp", torch.zeros(1))
        self.register_buffer("fp", torch.zeros(1))
        self.register_buffer("fn", torch.zeros(1))

    def update(self, preds, target):
        p = (preds > self.threshold).int()
        self.tp += ((p == 1) & (target == 1)).sum().reshape(1)
        self.fp += ((p == 1) & (target == 0)).sum().reshape(1)
        self.fn += ((p == 0) & (target == 1)).sum().reshape(1)

class BinaryPrecision(BinaryStatScores):
    def compute(self):
        return self.tp / (self.tp + self.fp)

class BinaryRecall(BinaryStatScores):
    def compute(self):
        return self.tp / (self.tp + self.fn)

class MultipleMetrics:
    def __init__(self, metrics):
        self._metrics = metrics

    def __call__(self, y_pred, y_true):
        logs = {}
        for metric in self._metrics:
            metric.update(y_pred, y_true.int())
            logs[type(metric).__name__] = metric.compute()
        return logs

class Trainer:
    def __init__(self, model, objective, metrics, device="cuda:0"):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.objective = objective
        self.metric = MultipleMetrics(metrics)

    def _get_score(self, y_pred, y):
        return self.metric(torch.sigmoid(y_pred), y)

model = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 1))
trainer = Trainer(model, objective="binary", metrics=[BinaryPrecision(), BinaryRecall()])
X = torch.randn(16, 10).to(trainer.device)
y = (torch.rand(16, 1) > 0.5).float().to(trainer.device)
'''
CELL = '''
with torch.no_grad():
    y_pred = trainer.model(X)
score = trainer._get_score(y_pred, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer.metric._metrics[0]", "trainer.metric._metrics[1]"]
FIX = "namespace"
REFERENCE_FIX = '''
for m in trainer.metric._metrics:
    m.to(trainer.device)
'''
REFERENCE_EDIT = None
CLEAN = False
