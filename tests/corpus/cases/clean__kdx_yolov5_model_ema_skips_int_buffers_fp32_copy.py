"""Look-alike: YOLOv5's `ModelEMA` blends a float32 EMA copy in place and skips BatchNorm's int64 `num_batches_tracked`.

Source: https://github.com/ultralytics/yolov5/blob/master/utils/torch_utils.py
`ModelEMA.update` walks `self.ema.state_dict()` and only for `v.dtype.is_floating_point` does
`v *= d; v += (1 - d) * msd[k].detach()`; the int64 `num_batches_tracked` buffers, which would
raise "result type Float can't be cast to the desired output type Long" under an in-place float
blend, are left alone. Mixed dtypes in one state dict, updated in place, by design.
Stand-in: ModelEMA as upstream (de_parallel left out), a small conv net with BatchNorm; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
from copy import deepcopy
import torch
from torch import nn

class ModelEMA:
    def __init__(self, model, decay=0.9999, tau=2000, updates=0):
        self.ema = deepcopy(model).eval()
        self.updates = updates
        self.decay = lambda x: decay * (1 - math.exp(-x / tau))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        self.updates += 1
        d = self.decay(self.updates)
        msd = model.state_dict()
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                v *= d
                v += (1 - d) * msd[k].detach()

model = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.SiLU(),
                      nn.Conv2d(16, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.SiLU())
ema = ModelEMA(model)
model.train()
with torch.no_grad():
    model(torch.rand(2, 3, 32, 32))          # running stats and num_batches_tracked move on
'''
CELL = '''
ema.update(model)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
