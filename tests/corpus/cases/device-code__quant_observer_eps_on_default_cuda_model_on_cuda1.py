"""Quantization observer on cuda:1: `_calculate_qparams` builds its eps tensor on plain "cuda" (cuda:0).

Source: https://github.com/pytorch/pytorch/issues/46533
Running the quantization reference script with `--device cuda:1`, the MinMax observer failed in
`_calculate_qparams` with "Expected all tensors to be on the same device, but found at least two
devices, cuda:1 and cuda:0!": it picks `device = 'cuda' if min_val.is_cuda else 'cpu'`, so the eps
tensor lands on the default GPU while the observed statistics live on cuda:1. The suggested fix is
`device = min_val.device`. Stand-in: the observer reduced to its min/max statistics and qparams.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
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

    def _calculate_qparams(self, min_val, max_val):
        device = 'cuda' if min_val.is_cuda else 'cpu'
        min_val = torch.min(min_val, torch.zeros_like(min_val))
        max_val = torch.max(max_val, torch.zeros_like(max_val))
        scale = (max_val - min_val) / float(self.quant_max - self.quant_min)
        scale = torch.max(scale, torch.tensor(self.eps, device=device, dtype=scale.dtype))
        zero_point = self.quant_min - torch.round(min_val / scale)
        zero_point = torch.clamp(zero_point, self.quant_min, self.quant_max)
        return scale, zero_point.to(torch.int64)

    def calculate_qparams(self):
        return self._calculate_qparams(self.min_val, self.max_val)

class ObservedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 8)
        self.act_obs = MinMaxObserver()

    def forward(self, x):
        return self.act_obs(torch.relu(self.fc(x)))

device = torch.device("cuda:1")
model = ObservedNet().to(device)
for _ in range(3):                       # calibration batches
    model(torch.randn(4, 16).to(device))
'''
CELL = '''
scale, zero_point = model.act_obs.calculate_qparams()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.act_obs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("device = 'cuda' if min_val.is_cuda else 'cpu'", "device = min_val.device")
CLEAN = False
