"""fastai2 `LabelSmoothingCrossEntropy` on a Windows-built PETS DataBunch: int32 targets reach `F.nll_loss`.

Source: https://github.com/fastai/fastai_dev/issues/302
With `loss_func=LabelSmoothingCrossEntropy()` training fails at once in
`F.nll_loss(log_preds, target, reduction=self.reduction)` with "Expected object of scalar type Long but
got scalar type Int for argument #2 'target'" (with `CrossEntropyLossFlat` it fails later, in the
`accuracy` metric). The labels come out of the user's `get_y` as numpy int32 (the Windows default
int), so the target tensor is Int; casting the target to long fixes it.
Stand-in: the loss as in fastai2 layers.py, a linear head on pooled features in place of resnet34, one
batch `xb, yb` built from the int32 labels.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, eps=0.1, reduction='mean'):
        super().__init__()
        self.eps, self.reduction = eps, reduction

    def forward(self, output, target):
        c = output.size()[-1]
        log_preds = F.log_softmax(output, dim=-1)
        if self.reduction == 'sum':
            loss = -log_preds.sum()
        else:
            loss = -log_preds.sum(dim=-1)
            if self.reduction == 'mean':
                loss = loss.mean()
        return loss * self.eps / c + (1 - self.eps) * F.nll_loss(log_preds, target, reduction=self.reduction)

n_classes = 37
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, n_classes))
loss_func = LabelSmoothingCrossEntropy()
labels = np.random.randint(0, n_classes, size=16).astype(np.int32)   # get_y on Windows
xb = torch.randn(16, 3, 8, 8)
yb = torch.from_numpy(labels)
'''
CELL = '''
pred = model(xb)
loss = loss_func(pred, yb)
loss.backward()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["yb"]
FIX = "namespace"
REFERENCE_FIX = '''
yb = yb.long()
'''
REFERENCE_EDIT = None
CLEAN = False
