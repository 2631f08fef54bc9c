"""ema-pytorch EMA of a model DeepSpeed later cast to bf16: `lerp_` of the fp32 EMA weights with bf16 ones.

Source: https://github.com/lucidrains/ema-pytorch/issues/36
"When training with DeepSpeed with BF16 enabled" `ema.update()` raised "expected dtype float for
`end` but got dtype c10::BFloat16" at `tgt.lerp_(src, weight)` in `inplace_lerp`. The EMA copy was
made (deepcopy) while the model was still float32; the engine then cast the online model to bf16.
The reporter: "the solution is to set `coerce_dtype=True`" (the source is cast to the EMA's dtype).
Stand-in: the EMA wrapper reduced to its copy, `coerce_dtype` flag and `update_moving_average`.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
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
ema = EMA(model, beta=0.999)
model.to(torch.bfloat16)                 # what deepspeed's bf16 engine does to the module
x = torch.randn(4, 8, dtype=torch.bfloat16)
with torch.no_grad():
    y = model(x)
'''
CELL = '''
ema.update()
'''
EXPECT_ERROR = "expected dtype float for `end` but got dtype c10::BFloat16"
CULPRITS = ["ema"]
FIX = "namespace"
REFERENCE_FIX = '''
ema.coerce_dtype = True
'''
REFERENCE_EDIT = None
CLEAN = False
