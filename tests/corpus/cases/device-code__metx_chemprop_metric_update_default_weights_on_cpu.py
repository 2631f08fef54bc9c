"""chemprop `BCELoss(task_weights=...)` criterion on a moved predictor: `update` makes the default per-sample `weights` on the CPU.

Source: https://github.com/chemprop/chemprop/pull/1296
"Fix device allocation in metrics weights": with
`BinaryClassificationFFN(n_tasks=3, criterion=BCELoss(task_weights=torch.ones(3)))` moved with
`predictor.to(device=device)`, calling `predictor.criterion(preds, targets)` on device tensors fails
with torchmetrics' "Encountered different devices in metric calculation". The criterion itself
moved (its `task_weights` buffer follows `.to()`); the stray is
`weights = torch.ones(targets.shape[0], dtype=torch.float)` in `ChempropMetric.update`, made without a
device when no weights are passed. The PR creates it on the targets' device. Stand-in:
`ChempropMetric`/`BCELoss` as in chemprop v2 before the PR on a minimal torchmetrics `Metric`
(states as buffers, `update` wrapped to re-raise device errors as torchmetrics does), and a small
`BinaryClassificationFFN` holding the criterion as a submodule; the report used "mps", cuda here.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import functools
import torch
from torch import nn, Tensor
from torch.nn import functional as F

class Metric(nn.Module):                         # stand-in for torchmetrics.Metric
    def __init__(self):
        super().__init__()
        self.update = self._wrap_update(self.update)

    def add_state(self, name, default, dist_reduce_fx=None):
        self.register_buffer(name, default, persistent=False)

    def _wrap_update(self, update):
        @functools.wraps(update)
        def wrapped_func(*args, **kwargs):
            try:
                update(*args, **kwargs)
            except RuntimeError as err:
                if "Expected all tensors to be on" in str(err):
                    raise RuntimeError(
                        "Encountered different devices in metric calculation (see stacktrace for details)."
                        " This could be due to the metric class not being on the same device as input."
                        f" Instead of `metric={self.__class__.__name__}(...)` try to do"
                        f" `metric={self.__class__.__name__}(...).to(device)` where"
                        " device corresponds to the device of the input."
                    ) from err
                raise err
        return wrapped_func

    def forward(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()

class ChempropMetric(Metric):
    is_differentiable = True
    higher_is_better = False
    full_state_update = False

    def __init__(self, task_weights=1.0):
        super().__init__()
        task_weights = torch.as_tensor(task_weights, dtype=torch.float).view(1, -1)
        self.register_buffer("task_weights", task_weights)
        self.add_state("total_loss", default=torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("num_samples", default=torch.tensor(0), dist_reduce_fx="sum")

    def update(self, preds, targets, mask=None, weights=None, lt_mask=None, gt_mask=None):
        mask = torch.ones_like(targets, dtype=torch.bool) if mask is None else mask
        weights = torch.ones(targets.shape[0], dtype=torch.float) if weights is None else weights
        lt_mask = torch.zeros_like(targets, dtype=torch.bool) if lt_mask is None else lt_mask
        gt_mask = torch.zeros_like(targets, dtype=torch.bool) if gt_mask is None else gt_mask

        L = self._calc_unreduced_loss(preds, targets, mask, weights, lt_mask, gt_mask)
        L = L * weights.view(-1, 1) * self.task_weights * mask

        self.total_loss += L.sum()
        self.num_samples += mask.sum()

    def compute(self):
        return self.total_loss / self.num_samples

class BCELoss(ChempropMetric):
    def _calc_unreduced_loss(self, preds, targets, *args):
        return F.binary_cross_entropy_with_logits(preds, targets, reduction="none")

class BinaryClassificationFFN(nn.Module):        # stand-in for chemprop.nn.BinaryClassificationFFN
    def __init__(self, n_tasks=1, input_dim=300, hidden_dim=300, criterion=None):
        super().__init__()
        self.ffn = nn.Sequential(nn.Linear(input_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, n_tasks))
        self.criterion = criterion if criterion is not None else BCELoss()

    def forward(self, Z):
        return self.ffn(Z).sigmoid()

task_dim = 3
predictor = BinaryClassificationFFN(
    n_tasks=task_dim,
    criterion=BCELoss(task_weights=torch.ones(task_dim)),
)

device = "cuda:0"
predictor.to(device=device)
'''
CELL = '''
predictor.criterion(
    torch.ones((10, task_dim)).to(device=device),
    torch.ones((10, task_dim)).to(device=device)
)
'''
EXPECT_ERROR = ("Encountered different devices in metric calculation", "Expected all tensors to be on the same device")
CULPRITS = ["predictor.criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("weights = torch.ones(targets.shape[0], dtype=torch.float) if weights is None else weights",
                  "weights = torch.ones(targets.shape[0], dtype=torch.float, device=targets.device) if weights is None else weights")
CLEAN = False
