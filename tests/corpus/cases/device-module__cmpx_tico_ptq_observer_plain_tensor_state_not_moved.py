"""PTQ observers kept as plain Python objects with tensor attributes: `model.to("cuda")` moves the layers but not the observers' min/max statistics.

Source: https://github.com/Samsung/TICO/issues/443
"[quantization] Observer tensors do not move with `model.to`": TICO's observers (`ObserverBase`,
`AffineObserverBase`) do not inherit from `nn.Module` and keep `min_val`, `max_val` and cached
scale / zero-point as plain tensor attributes, so after `model.to("cuda")` the PTQ run mixes the
CUDA activations with the CPU statistics ("device mismatch errors"). The fix: make the observers
modules and register the state as buffers (or move the statistics yourself).
Stand-in: a quantization wrapper module around a linear layer holding a plain-object per-channel
min/max observer whose state was created on the CPU; calibration on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class AffineObserverBase:                       # not an nn.Module
    def __init__(self, channels):
        self.min_val = torch.full((channels,), float("inf"))
        self.max_val = torch.full((channels,), float("-inf"))

    def collect(self, x):
        x = x.detach().reshape(-1, x.shape[-1])
        self.min_val = torch.minimum(self.min_val, x.amin(dim=0))
        self.max_val = torch.maximum(self.max_val, x.amax(dim=0))

class PTQWrapper(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module
        self.act_obs = AffineObserverBase(module.out_features)

    def forward(self, x):
        y = self.module(x)
        self.act_obs.collect(y)
        return y

model = PTQWrapper(nn.Linear(16, 8))
model.to("cuda:0")
calib = [torch.randn(4, 16, device="cuda:0") for _ in range(2)]
'''
CELL = '''
with torch.no_grad():
    for x in calib:
        model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.act_obs"]
FIX = "namespace"
REFERENCE_FIX = '''
model.act_obs.min_val = model.act_obs.min_val.to("cuda:0")
model.act_obs.max_val = model.act_obs.max_val.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
