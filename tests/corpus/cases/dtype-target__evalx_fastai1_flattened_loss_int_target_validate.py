"""fastai v1 `CrossEntropyFlat` (FlattenedLoss) in validation: the Int target tensor fails `nll_loss`.

Source: https://github.com/fastai/fastai/issues/1801
"Expected object of scalar type Long but got scalar type Int for argument #2 'target'": the labels of
the user's DataBunch are int32, `FlattenedLoss.__call__` passes `target.view(-1)` unchanged to
`CrossEntropyLoss`. The reporter's fix: cast the target with `.long()` (they patched it into
FlattenedLoss and the accuracy metric; casting the batch target is the same fix).
Stand-in: FlattenedLoss / CrossEntropyFlat as in fastai 1.0 layers.py, a small tabular model, one
validation batch from int32 labels under `torch.no_grad()` as in `loss_batch` during `validate`.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

class FlattenedLoss():
    def __init__(self, func, *args, axis=-1, floatify=False, is_2d=True, **kwargs):
        self.func, self.axis, self.floatify, self.is_2d = func(*args, **kwargs), axis, floatify, is_2d

    def __call__(self, input, target, **kwargs):
        input = input.transpose(self.axis, -1).contiguous()
        target = target.transpose(self.axis, -1).contiguous()
        if self.floatify:
            target = target.float()
        input = input.view(-1, input.shape[-1]) if self.is_2d else input.view(-1)
        return self.func.__call__(input, target.view(-1), **kwargs)

def CrossEntropyFlat(*args, axis=-1, **kwargs):
    return FlattenedLoss(nn.CrossEntropyLoss, *args, axis=axis, **kwargs)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5))
loss_func = CrossEntropyFlat()
valid_y = np.random.randint(0, 5, size=64).astype(np.int32)
xb = torch.randn(64, 10)
yb = torch.tensor(valid_y)
model.eval()
'''
CELL = '''
with torch.no_grad():
    out = model(xb)
    val_loss = loss_func(out, yb)
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["yb"]
FIX = "namespace"
REFERENCE_FIX = '''
yb = yb.long()
'''
REFERENCE_EDIT = None
CLEAN = False
