"""torchmetrics `MulticlassConfusionMatrix` fed cuda segmentation logits and masks: its `confmat` state is still on the CPU.

Source: https://github.com/Lightning-AI/torchmetrics/issues/1865
"When you try to calculate the confmat with GPU tensors for multiclass it throws the different
device exception ... `self.confmat += confmat` where confmat [is] defined in the GPU, and
self.confmat defined in CPU" (preds `(N, C, H, W)`, labels `(N, H, W)`). Maintainer: the metric
was never moved; metrics are `nn.Module`s and must be moved to the device where the calculation
happens (`MulticlassConfusionMatrix(num_classes=...).to(device)`). Stand-in: the metric's
format/update/compute path of torchmetrics 1.0 on a minimal `Metric` (states as buffers); the
bincount is torchmetrics' own deterministic `_bincount` fallback (a mesh comparison), which the
simulator can run.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Metric(nn.Module):                              # stand-in for torchmetrics.Metric
    def add_state(self, name, default, dist_reduce_fx=None):
        self.register_buffer(name, default, persistent=False)

    def forward(self, *args, **kwargs):
        self.update(*args, **kwargs)
        return self.compute()

def _bincount(x, minlength):
    mesh = torch.arange(minlength, device=x.device).repeat(len(x), 1)
    return torch.eq(x.reshape(-1, 1), mesh).sum(dim=0)

def _multiclass_confusion_matrix_format(preds, target):
    if preds.ndim == target.ndim + 1:
        preds = preds.argmax(dim=1)
    preds = preds.flatten()
    target = target.flatten()
    return preds, target

def _multiclass_confusion_matrix_update(preds, target, num_classes):
    unique_mapping = target.to(torch.long) * num_classes + preds.to(torch.long)
    bins = _bincount(unique_mapping, minlength=num_classes**2)
    return bins.reshape(num_classes, num_classes)

class MulticlassConfusionMatrix(Metric):
    is_differentiable = False
    higher_is_better = None
    full_state_update = False

    def __init__(self, num_classes, ignore_index=None, normalize=None):
        super().__init__()
        self.num_classes = num_classes
        self.ignore_index = ignore_index
        self.normalize = normalize
        self.add_state("confmat", torch.zeros(num_classes, num_classes, dtype=torch.long), dist_reduce_fx="sum")

    def update(self, preds, target):
        preds, target = _multiclass_confusion_matrix_format(preds, target)
        confmat = _multiclass_confusion_matrix_update(preds, target, self.num_classes)
        self.confmat += confmat

    def compute(self):
        return self.confmat

device = torch.device("cuda:0")
num_classes = 4
confmat = MulticlassConfusionMatrix(num_classes=num_classes)
preds = torch.randn(2, num_classes, 16, 16, device=device)          # (N, C, H, W) logits
target = torch.randint(0, num_classes, (2, 16, 16), device=device)   # (N, H, W) labels
'''
CELL = '''
cm = confmat(preds, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["confmat"]
FIX = "namespace"
REFERENCE_FIX = '''
confmat = confmat.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
