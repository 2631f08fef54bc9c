"""PyPOTS calc_quantile_crps on CUDA samples: the CRPS accumulator `torch.tensor(0.0)` lives on the CPU.

Source: https://github.com/WenjieDu/PyPOTS/pull/837
`calc_quantile_crps` (pypots/nn/functional/error.py) starts with `CRPS = torch.tensor(0.0)`, always a
CPU tensor; the in-place `CRPS += q_loss / denominator` then mixes it with tensors on the inputs'
device and raises "Expected all tensors to be on the same device, but got CRPS is on cpu, different
from other tensors on cuda:0". The PR allocates it on the inputs' device:
`CRPS = torch.tensor(0.0, device=predictions.device)`.
Stand-in: the function without its input checks and numpy branches; `predictions[j : j + 1]` is
written `predictions.narrow(0, j, 1)` with the quantile level as a tensor, and it returns the tensor
instead of `CRPS.item() / len(quantiles)` (the CPU simulation cannot slice or read a fake CUDA tensor).
The samples stand for CSDI imputations of a PhysioNet-like batch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch


def calc_quantile_loss(predictions, targets, q, eval_points):
    quantile_loss = 2 * torch.sum(
        torch.abs((predictions - targets) * eval_points * ((targets <= predictions) * 1.0 - q))
    )
    return quantile_loss


def calc_quantile_crps(predictions, targets, masks, scaler_mean=0, scaler_stddev=1):
    """Stand-in for pypots.nn.functional.calc_quantile_crps."""
    targets = targets * scaler_stddev + scaler_mean
    predictions = predictions * scaler_stddev + scaler_mean

    quantiles = np.arange(0.05, 1.0, 0.05)
    denominator = torch.sum(torch.abs(targets * masks))
    CRPS = torch.tensor(0.0)
    for i in range(len(quantiles)):
        q_pred = []
        for j in range(len(predictions)):
            q = torch.tensor(float(quantiles[i]), device=predictions.device)
            q_pred.append(torch.quantile(predictions.narrow(0, j, 1), q, dim=1))
        q_pred = torch.cat(q_pred, 0)
        q_loss = calc_quantile_loss(q_pred, targets, float(quantiles[i]), masks)
        CRPS += q_loss / denominator
    return CRPS / len(quantiles)


device = torch.device("cuda:0")
n_samples, n_steps, n_features = 20, 48, 35
# CSDI draws n_samples imputations per patient; everything stays on the GPU
imputation_samples = torch.randn(8, n_samples, n_steps, n_features, device=device)
test_X_ori = torch.randn(8, n_steps, n_features, device=device)
indicating_mask = (torch.rand(8, n_steps, n_features, device=device) > 0.9).float()
'''
CELL = '''
crps = calc_quantile_crps(imputation_samples, test_X_ori, indicating_mask)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "wrapped to wrong device")
CULPRITS = ["calc_quantile_crps"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    CRPS = torch.tensor(0.0)\n",
                  "    CRPS = torch.tensor(0.0, device=predictions.device)\n")
CLEAN = False
