"""torchsurv survival_function_cox on the GPU: `_searchsorted` runs on CPU copies and moves the indices back, and subtracts a CPU `torch.tensor(1)`.

Source: https://github.com/Novartis/torchsurv/blob/main/src/torchsurv/loss/cox.py
`_searchsorted(sorted_seq, values)` is "torch.searchsorted with CPU fallback for devices that don't
support it (e.g. MPS)": `torch.searchsorted(sorted_seq.cpu(), values.cpu(), right=right)
.to(sorted_seq.device)`. `survival_function_cox` then computes
`time_index = _searchsorted(time_stratum, new_time, right=True) - torch.tensor(1)`, a 0-dim CPU
tensor that PyTorch lets meet CUDA tensors, clamps it and raises the baseline survival to
`exp(new_log_hz)`. With the baseline survival, the new subjects' log hazards and the evaluation times
all on the GPU, the result is on the GPU.
Look-alike: a deliberate CPU round trip and a CPU scalar tensor inside a CUDA computation.
Stand-in: the unstratified branch of `survival_function_cox` (the strata loop over `torch.unique`
and the masked assignment have data-dependent shapes the CPU simulation cannot run); the baseline
survival dict is given, as `baseline_survival_function` would return it.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def _searchsorted(sorted_seq, values, right=False):
    """torch.searchsorted with CPU fallback for devices that don't support it (e.g. MPS)."""
    return torch.searchsorted(sorted_seq.cpu(), values.cpu(), right=right).to(sorted_seq.device)


def survival_function_cox(baseline_survival, new_log_hz, new_time, new_strata=None):
    """Stand-in for torchsurv.loss.cox.survival_function_cox (one stratum)."""
    new_log_hz = new_log_hz.squeeze()
    new_time = new_time.squeeze()
    time_stratum = baseline_survival["time"]
    bs_stratum = baseline_survival["baseline_survival"]
    # Index of last time_stratum value <= new_time (floor index)
    time_index = _searchsorted(time_stratum, new_time, right=True) - torch.tensor(1)
    time_index = time_index.clamp(min=0)
    bs_stratum_new_time = bs_stratum.index_select(0, time_index)     # bs_stratum[time_index]
    return bs_stratum_new_time.unsqueeze(0) ** torch.exp(new_log_hz).unsqueeze(1)


device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)   # Cox log-hazard net
# baseline_survival_function(log_hz, event, time) on the training set, computed on the GPU
baseline_survival = {
    "time": torch.linspace(1.0, 1800.0, 120, device=device),
    "baseline_survival": torch.linspace(0.99, 0.35, 120, device=device),
}
x_new = torch.randn(50, 16, device=device)
new_time = torch.tensor([365.0, 730.0, 1095.0, 1460.0]).to(device)
'''
CELL = '''
with torch.no_grad():
    new_log_hz = model(x_new)
surv = survival_function_cox(baseline_survival, new_log_hz, new_time)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
