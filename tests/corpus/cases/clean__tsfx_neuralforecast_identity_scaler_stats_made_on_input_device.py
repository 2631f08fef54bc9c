"""neuralforecast TemporalNorm (current): the identity scaler's `x_shift`/`x_scale` are `torch.zeros/ones(shape, device=x.device)`, stored as plain attributes.

Source: https://github.com/Nixtla/neuralforecast/blob/main/neuralforecast/common/_scalers.py
`identity_statistics` now builds `x_shift = torch.zeros(shape, device=x.device)` and
`x_scale = torch.ones(shape, device=x.device)`; `TemporalNorm.transform` keeps them as plain
attributes (`self.x_shift`, `self.x_scale`) that the model later reads to rescale its outputs and
distribution parameters. Look-alike: statistics tensors created from a shape inside a helper and
kept outside `Module.to()`, which are made on the batch's device. Stand-ins: the identity/standard
statistics and TemporalNorm as in neuralforecast, an MLP forecaster that rescales a Normal
location/scale with the scaler's stats.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def identity_statistics(x, mask, dim=-1, eps=1e-6):
    shape = list(x.shape)
    shape[dim] = 1
    x_shift = torch.zeros(shape, device=x.device)
    x_scale = torch.ones(shape, device=x.device)
    return x_shift, x_scale

def identity_scaler(x, x_shift, x_scale):
    return x

class TemporalNorm(nn.Module):
    def __init__(self, scaler_type="robust", dim=-1, eps=1e-6):
        super().__init__()
        self.compute_statistics = {"identity": identity_statistics}[scaler_type]
        self.scaler = {"identity": identity_scaler}[scaler_type]
        self.dim, self.eps = dim, eps

    def transform(self, x, mask):
        x_shift, x_scale = self.compute_statistics(x=x, mask=mask, dim=self.dim, eps=self.eps)
        self.x_shift = x_shift
        self.x_scale = x_scale
        return self.scaler(x, x_shift, x_scale)

def normal_scale_decouple(output, loc=None, scale=None, eps: float = 0.2):
    mean, std = output
    std = F.softplus(std)
    if (loc is not None) and (scale is not None):
        mean = (mean * scale) + loc
        std = (std + eps) * scale
    return (mean, std)

class MLP(nn.Module):
    def __init__(self, h, input_size, hidden_size=64):
        super().__init__()
        self.h = h
        self.scaler = TemporalNorm(scaler_type="identity", dim=1)
        self.mlp = nn.Sequential(nn.Linear(input_size, hidden_size), nn.ReLU(), nn.Linear(hidden_size, 2 * h))

    def forward(self, insample_y, insample_mask):
        z = self.scaler.transform(insample_y[:, :, None], insample_mask[:, :, None])[:, :, 0]
        out = self.mlp(z).view(-1, self.h, 2)
        y_loc = self.scaler.x_shift[:, :, 0]
        y_scale = self.scaler.x_scale[:, :, 0]
        return normal_scale_decouple((out[..., 0], out[..., 1]), loc=y_loc, scale=y_scale)

device = torch.device("cuda:0")
model = MLP(h=12, input_size=48).to(device)
insample_y = torch.randn(8, 48).to(device)
insample_mask = torch.ones(8, 48).to(device)
'''
CELL = '''
mean, std = model(insample_y, insample_mask)
print(mean.shape, model.scaler.x_scale.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
