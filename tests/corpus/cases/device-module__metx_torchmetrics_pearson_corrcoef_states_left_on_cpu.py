"""torchmetrics `PearsonCorrCoef()` called on cuda predictions and targets: its running `mean_x`/`var_x` states were created on the CPU.

Source: https://github.com/Lightning-AI/torchmetrics/issues/1067
"When computing the Pearson Correlation Coefficient with input cuda tensors (prediction and target),
an error is raised because some default values (`mean_x`, `mean_y`) are initialized as
torch.tensors (on the cpu)": `pearson = PearsonCorrCoef(); pearson(preds, target)` with both moved
`.to('cuda')` fails in `_pearson_corrcoef_update` ("Expected all tensors to be on the same
device"). Maintainer: each metric is an `nn.Module` and must be moved to the same device as the
inputs (`pearson.to('cuda')`). Stand-in: `PearsonCorrCoef` and its functional update/compute as in
torchmetrics 0.8.2 on a minimal `Metric` (states as buffers).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn, Tensor

class Metric(nn.Module):                          # stand-in for torchmetrics.Metric
    def add_state(self, name, default, dist_reduce_fx=None):
        self.register_buffer(name, default, persistent=False)

    def forward(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()

def _check_same_shape(preds, target):
    if preds.shape != target.shape:
        raise RuntimeError("Predictions and targets are expected to have the same shape")

def _pearson_corrcoef_update(preds, target, mean_x, mean_y, var_x, var_y, corr_xy, n_prior):
    _check_same_shape(preds, target)
    preds = preds.squeeze()
    target = target.squeeze()
    if preds.ndim > 1 or target.ndim > 1:
        raise ValueError("Expected both predictions and target to be 1 dimensional tensors.")

    n_obs = preds.numel()
    mx_new = (n_prior * mean_x + preds.mean() * n_obs) / (n_prior + n_obs)
    my_new = (n_prior * mean_y + target.mean() * n_obs) / (n_prior + n_obs)
    n_prior += n_obs
    var_x += ((preds - mx_new) * (preds - mean_x)).sum()
    var_y += ((target - my_new) * (target - mean_y)).sum()
    corr_xy += ((preds - mx_new) * (target - mean_y)).sum()
    mean_x = mx_new
    mean_y = my_new
    return mean_x, mean_y, var_x, var_y, corr_xy, n_prior

def _pearson_corrcoef_compute(var_x, var_y, corr_xy, nb):
    var_x /= nb - 1
    var_y /= nb - 1
    corr_xy /= nb - 1
    corrcoef = (corr_xy / (var_x * var_y).sqrt()).squeeze()
    return torch.clamp(corrcoef, -1.0, 1.0)

class PearsonCorrCoef(Metric):
    is_differentiable = True
    higher_is_better = None

    def __init__(self):
        super().__init__()
        self.add_state("mean_x", default=torch.zeros(1), dist_reduce_fx=None)
        self.add_state("mean_y", default=torch.zeros(1), dist_reduce_fx=None)
        self.add_state("var_x", default=torch.zeros(1), dist_reduce_fx=None)
        self.add_state("var_y", default=torch.zeros(1), dist_reduce_fx=None)
        self.add_state("corr_xy", default=torch.zeros(1), dist_reduce_fx=None)
        self.add_state("n_total", default=torch.zeros(1), dist_reduce_fx=None)

    def update(self, preds: Tensor, target: Tensor) -> None:
        self.mean_x, self.mean_y, self.var_x, self.var_y, self.corr_xy, self.n_total = _pearson_corrcoef_update(
            preds, target, self.mean_x, self.mean_y, self.var_x, self.var_y, self.corr_xy, self.n_total
        )

    def compute(self) -> Tensor:
        return _pearson_corrcoef_compute(self.var_x, self.var_y, self.corr_xy, self.n_total)

target = torch.tensor([3, -0.5, 2, 7]).to('cuda:0')
preds = torch.tensor([2.5, 0.0, 2, 8]).to('cuda:0')
pearson = PearsonCorrCoef()
'''
CELL = '''
pearson(preds, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pearson"]
FIX = "namespace"
REFERENCE_FIX = '''
pearson = pearson.to('cuda:0')
'''
REFERENCE_EDIT = None
CLEAN = False
