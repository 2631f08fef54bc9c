"""ClimaX latitude-weighted MSE on a GPU forecast: the cos(lat) weights come from NumPy each call and are moved to the prediction's device and dtype.

Source: https://github.com/microsoft/ClimaX/blob/main/src/climax/utils/metrics.py
ClimaX's `lat_weighted_mse(pred, y, vars, lat, mask=None)` takes `lat` as a NumPy array kept by the
datamodule, computes `w_lat = np.cos(np.deg2rad(lat)); w_lat = w_lat / w_lat.mean()` and turns it
into `torch.from_numpy(w_lat).unsqueeze(0).unsqueeze(-1).to(dtype=error.dtype, device=error.device)`
before weighting the squared error per variable. Look-alike: latitude weights born on the CPU
(float64) beside a GPU model's float32 output, cast and moved at use. Stand-in: the metric and a
1x1-conv forecaster.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def lat_weighted_mse(pred, y, vars, lat, mask=None):
    error = (pred - y) ** 2  # [N, C, H, W]
    w_lat = np.cos(np.deg2rad(lat))
    w_lat = w_lat / w_lat.mean()  # (H, )
    w_lat = torch.from_numpy(w_lat).unsqueeze(0).unsqueeze(-1).to(dtype=error.dtype, device=error.device)
    loss_dict = {}
    for i, var in enumerate(vars):
        loss_dict[var] = (error[:, i] * w_lat).mean()
    loss_dict["loss"] = torch.stack([loss_dict[v] for v in vars]).mean()
    return loss_dict

vars = ["t2m", "z500", "t850"]
lat = np.linspace(-87.1875, 87.1875, 32)
device = torch.device("cuda:0")
net = nn.Conv2d(3, 3, 1).to(device)
x = torch.randn(2, 3, 32, 64, device=device)
y = torch.randn(2, 3, 32, 64, device=device)
'''
CELL = '''
with torch.no_grad():
    losses = lat_weighted_mse(net(x), y, vars, lat)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
