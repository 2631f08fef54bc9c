"""Look-alike: a float32 EMA copy of a model trained in bf16, updated with `coerce_dtype=True`.

Source: https://github.com/lucidrains/ema-pytorch/issues/36
Resolution of "expected dtype float for `end` but got dtype c10::BFloat16" under DeepSpeed bf16:
"the solution is to set `coerce_dtype=True`", which casts each online weight to the EMA weight's
dtype before `lerp_`. Keeping the EMA in float32 while the online model is bf16 is deliberate
(precision of the running average, cf. sd_dreambooth_extension PR 1415 "Use float32 for EMA
model"); nothing to report.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import copy
import torch
from torch import nn

def inplace_lerp(tgt, src, weight):
    tgt.lerp_(src, weight)

class EMA(nn.Module):
    def __init__(self, model, beta=0.9999, coerce_dtype=False):
        super().__init__()
        self.beta = beta
        self.coerce_dtype = coerce_dtype
        self.online_model = [model]
        self.ema_model = copy.deepcopy(model)
        self.ema_model.requires_grad_(False)

    @property
    def model(self):
        return self.online_model[0]

    @torch.no_grad()
    def update(self):
        for tgt, src in zip(self.ema_model.parameters(), self.model.parameters()):
            if self.coerce_dtype:
                src = src.to(tgt.dtype)
            inplace_lerp(tgt, src, 1. - self.beta)

model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))
ema = EMA(model, beta=0.999, coerce_dtype=True)
model.to(torch.bfloat16)
x = torch.randn(4, 8, dtype=torch.bfloat16)
with torch.no_grad():
    y = model(x)
'''
CELL = '''
ema.update()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
