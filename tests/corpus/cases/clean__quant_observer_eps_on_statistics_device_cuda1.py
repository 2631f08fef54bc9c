"""Look-alike: an observer on cuda:1 whose eps tensor is created on the statistics' own device.

Source: https://github.com/pytorch/pytorch/pull/135204
After the fixes for pytorch issue 46533 and this PR, the observer creates its eps on the device of the
statistics it clamps (`min_val.device`), so a model calibrated on a second GPU computes its qparams
there; a Python float eps and a cuda:1 scale mix by design. Nothing to report. Stand-in: the observer
reduced to its min/max statistics and qparams.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class MinMaxObserver(nn.Module):
    def __init__(self, quant_min=0, quant_max=255, eps=torch.finfo(torch.float32).eps):
        super().__init__()
        self.quant_min, self.quant_max, self.eps = quant_min, quant_max, eps
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))

    def forward(self, x_orig):
        x = x_orig.detach()
        self.min_val = torch.min(torch.min(x), self.min_val)
        self.max_val = torch.max(torch.max(x), self.max_val)
        return x_orig

    def calculate_qparams(self):
        min_val, max_val = self.min_val, self.max_val
        device = min_val.device
        min_val = torch.min(min_val, torch.zeros_like(min_val))
        max_val = torch.max(max_val, torch.zeros_like(max_val))
        scale = (max_val - min_val) / float(self.quant_max - self.quant_min)
        scale = torch.max(scale, torch.tensor(self.eps, device=device, dtype=scale.dtype))
        zero_point = torch.clamp(self.quant_min - torch.round(min_val / scale), self.quant_min, self.quant_max)
        return scale, zero_point.to(torch.int64)

class ObservedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 8)
        self.act_obs = MinMaxObserver()

    def forward(self, x):
        return self.act_obs(torch.relu(self.fc(x)))

device = torch.device("cuda:1")
model = ObservedNet().to(device)
for _ in range(3):
    model(torch.randn(4, 16).to(device))
'''
CELL = '''
scale, zero_point = model.act_obs.calculate_qparams()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
