"""timm `Mixup`: soft one-hot targets are built with `device=target.device` and mixed with the flipped batch on the GPU.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/data/mixup.py
`Mixup.__call__(x, target)` mixes the batch in place (`x.mul_(lam).add_(x_flipped.mul_(1. - lam))`) with a
Python-float `lam` drawn by numpy, then `mixup_target(target, num_classes, lam, smoothing)` builds
`torch.full((N, num_classes), off_value, device=target.device).scatter_(1, x, on_value)` for the target
and its flip. `SoftTargetCrossEntropy` then multiplies these float targets with the log-probabilities.
Look-alike: int64 labels turned into float soft targets, numpy scalars, tensors created in helpers,
all on the right device by construction.
Stand-in: mixup only (no cutmix), a linear classifier; the batch is already on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

def one_hot(x, num_classes, on_value=1., off_value=0.):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value, device=x.device).scatter_(1, x, on_value)

def mixup_target(target, num_classes, lam=1., smoothing=0.0):
    off_value = smoothing / num_classes
    on_value = 1. - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value)
    return y1 * lam + y2 * (1. - lam)

class Mixup:
    def __init__(self, mixup_alpha=0.8, label_smoothing=0.1, num_classes=1000):
        self.mixup_alpha, self.label_smoothing, self.num_classes = mixup_alpha, label_smoothing, num_classes

    def __call__(self, x, target):
        lam = float(np.random.beta(self.mixup_alpha, self.mixup_alpha))
        x_flipped = x.flip(0).mul_(1. - lam)
        x.mul_(lam).add_(x_flipped)
        target = mixup_target(target, self.num_classes, lam, self.label_smoothing)
        return x, target

class SoftTargetCrossEntropy(nn.Module):
    def forward(self, x, target):
        loss = torch.sum(-target * F.log_softmax(x, dim=-1), dim=-1)
        return loss.mean()

num_classes = 10
mixup_fn = Mixup(mixup_alpha=0.8, label_smoothing=0.1, num_classes=num_classes)
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, num_classes)).to("cuda:0")
train_loss_fn = SoftTargetCrossEntropy()
input = torch.randn(16, 3, 8, 8, device="cuda:0")
target = torch.randint(0, num_classes, (16,), device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    input, target = mixup_fn(input, target)
    output = model(input)
    loss = train_loss_fn(output, target)
print(target.dtype, loss.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
