"""ignite `EpochMetric` on a GPU evaluator: every batch's `y_pred`/`y` is cloned onto the metric's CPU device and the epoch-level score is computed there.

Source: https://github.com/pytorch/ignite/blob/master/ignite/metrics/epoch_metric.py
`EpochMetric(compute_fn, device="cpu")` (the default device) does
`y_pred = y_pred.clone().to(self._device)` and `y = y.clone().to(self._device)` in `update`,
appends them to `_predictions`/`_targets`, runs `compute_fn` once on the first pair as a check,
and `compute` concatenates the stored CPU tensors before calling `compute_fn`. The model and the
batches live on cuda. Look-alike: a metric that keeps CPU copies of cuda outputs on purpose (the
usual compute functions are sklearn ones). Stand-in: `EpochMetric.update/compute` of ignite 0.4.13
on a minimal `Metric` (no engine, single process), a torch-only `compute_fn`, and a small model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import warnings
import torch
from torch import nn

class Metric:                                         # stand-in for ignite.metrics.Metric
    def __init__(self, output_transform=lambda x: x, device=torch.device("cpu")):
        self._output_transform = output_transform
        self._device = torch.device(device)
        self.reset()

class EpochMetric(Metric):
    def __init__(self, compute_fn, output_transform=lambda x: x, check_compute_fn=True,
                 device=torch.device("cpu")):
        if not callable(compute_fn):
            raise TypeError("Argument compute_fn should be callable.")
        self.compute_fn = compute_fn
        self._check_compute_fn = check_compute_fn
        super(EpochMetric, self).__init__(output_transform=output_transform, device=device)

    def reset(self):
        self._predictions = []
        self._targets = []
        self._result = None

    def _check_shape(self, output):
        y_pred, y = output
        if y_pred.ndimension() not in (1, 2):
            raise ValueError("Predictions should be of shape (batch_size, n_targets) or (batch_size, ).")
        if y.ndimension() not in (1, 2):
            raise ValueError("Targets should be of shape (batch_size, n_targets) or (batch_size, ).")

    def update(self, output):
        self._check_shape(output)
        y_pred, y = output[0].detach(), output[1].detach()
        if y_pred.ndimension() == 2 and y_pred.shape[1] == 1:
            y_pred = y_pred.squeeze(dim=-1)
        if y.ndimension() == 2 and y.shape[1] == 1:
            y = y.squeeze(dim=-1)
        y_pred = y_pred.clone().to(self._device)
        y = y.clone().to(self._device)
        self._predictions.append(y_pred)
        self._targets.append(y)
        if len(self._predictions) == 1 and self._check_compute_fn:
            try:
                self.compute_fn(self._predictions[0], self._targets[0])
            except Exception as e:
                warnings.warn(f"Probably, there can be a problem with `compute_fn`:\\n {e}.")

    def compute(self):
        if self._result is None:
            _prediction_tensor = torch.cat(self._predictions, dim=0)
            _target_tensor = torch.cat(self._targets, dim=0)
            self._result = self.compute_fn(_prediction_tensor, _target_tensor)
        return self._result

def mse_fn(y_preds, y_targets):
    return torch.mean(((y_preds - y_targets.type_as(y_preds)) ** 2))

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
model.eval()
metric = EpochMetric(mse_fn)
batches = [(torch.randn(32, 10, device=device), torch.randn(32, 1, device=device)) for _ in range(3)]
'''
CELL = '''
metric.reset()
for x, y in batches:
    y_pred = model(x)
    metric.update((y_pred, y))
epoch_mse = metric.compute()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
