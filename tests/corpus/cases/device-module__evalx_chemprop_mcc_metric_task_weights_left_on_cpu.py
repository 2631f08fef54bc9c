"""chemprop v2 `BinaryMCCMetric` on a GPU: `L * self.task_weights` mixes cuda:0 and cpu during validation.

Source: https://github.com/chemprop/chemprop/pull/973
Validating an MPNN with `metrics=[BinaryMCCMetric()]` on a GPU raises "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu!" at `L = L * self.task_weights`. The
metrics are kept in a plain list on the model, so moving the model never moves their `task_weights`
buffer (the loss function, a registered submodule, is moved). Fix merged in the PR:
`self.task_weights.to(preds.device)`.
Stand-in: a two-layer predictor in place of the message-passing network; `LossFunction` registers
`task_weights` as in v2.0; the MCC is computed from soft confusion counts as in `MCCMixin`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class LossFunction(nn.Module):
    def __init__(self, task_weights=None):
        super().__init__()
        task_weights = torch.ones([1]) if task_weights is None else task_weights
        self.register_buffer("task_weights", torch.as_tensor(task_weights, dtype=torch.float).view(1, -1))

class BinaryMCCMetric(LossFunction):
    def _calc_unreduced_loss(self, preds, targets, mask, weights):
        TP = (targets * preds * weights * mask).sum(0, keepdim=True)
        FP = ((1 - targets) * preds * weights * mask).sum(0, keepdim=True)
        TN = ((1 - targets) * (1 - preds) * weights * mask).sum(0, keepdim=True)
        FN = (targets * (1 - preds) * weights * mask).sum(0, keepdim=True)
        return (TP * TN - FP * FN) / ((TP + FP) * (TP + FN) * (TN + FP) * (TN + FN) + 1e-8).sqrt()

    def forward(self, preds, targets, mask, weights):
        preds = preds.sigmoid()
        L = self._calc_unreduced_loss(preds, targets.long(), mask, weights)
        L = L * self.task_weights
        return L.mean()

class MPNN(nn.Module):
    def __init__(self, n_tasks, metrics):
        super().__init__()
        self.predictor = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, n_tasks))
        self.criterion = LossFunction()
        self.metrics = metrics

    def forward(self, X):
        return self.predictor(X)

    def validation_step(self, batch):
        X, targets, weights = batch
        mask = targets.isfinite()
        preds = self(X)
        return [metric(preds, targets, mask, weights) for metric in self.metrics]

device = torch.device("cuda:0")
model = MPNN(n_tasks=3, metrics=[BinaryMCCMetric()]).to(device)
batch = (torch.randn(16, 32, device=device), torch.randint(0, 2, (16, 3), device=device).float(),
         torch.ones(16, 1, device=device))
'''
CELL = '''
with torch.no_grad():
    val_metrics = model.validation_step(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.metrics"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("L = L * self.task_weights", "L = L * self.task_weights.to(preds.device)")
CLEAN = False
