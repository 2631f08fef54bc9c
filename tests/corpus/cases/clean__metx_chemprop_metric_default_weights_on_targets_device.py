"""chemprop v2 `BCELoss(task_weights=...)` as the criterion of a predictor moved to the GPU: `update` builds its default per-sample weights on the targets' device.

Source: https://github.com/chemprop/chemprop/blob/main/chemprop/nn/metrics.py
`ChempropMetric.update` fills missing arguments with tensors made in the method:
`mask = torch.ones_like(targets, dtype=torch.bool)` and
`weights = torch.ones(targets.shape[0], dtype=torch.float, device=targets.device)`; the
`task_weights` given as a CPU `torch.ones(n_tasks)` at construction is a registered buffer, and the
criterion is a submodule of `BinaryClassificationFFN`, so `predictor.to(device)` moves it and the
`total_loss`/`num_samples` states. Look-alike: a CPU tensor handed to a metric's constructor and
tensors created inside `update`, all ending on the inputs' device. Stand-in: `ChempropMetric`/
`BCELoss` as in chemprop 2.3 on a minimal torchmetrics `Metric`, and a small
`BinaryClassificationFFN` holding the criterion.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        weights = (
            torch.ones(targets.shape[0], dtype=torch.float, device=targets.device)
            if weights is None
            else weights
        )
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
preds = predictor(torch.randn(10, 300, device=device))
loss = predictor.criterion(preds, torch.ones((10, task_dim), device=device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
