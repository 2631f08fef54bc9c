"""Look-alike: timm's Mixup after the fix, passing the batch's device to `mixup_target`, on cuda:1.

Source: https://github.com/huggingface/pytorch-image-models/pull/913
The PR's author hit the old `device='cuda'` default of `mixup_target` (Mixup failed on a CPU
batch); the fix makes `Mixup.__call__` pass `x.device`. Here the model, images and labels are all
on cuda:1 and the one-hot targets are built there too. Nothing is misplaced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def one_hot(x, num_classes, on_value=1., off_value=0., device='cuda'):
    x = x.long().view(-1, 1)
    return torch.full((x.size()[0], num_classes), off_value, device=device).scatter_(1, x, on_value)

def mixup_target(target, num_classes, lam=1., smoothing=0.0, device='cuda'):
    off_value = smoothing / num_classes
    on_value = 1. - smoothing + off_value
    y1 = one_hot(target, num_classes, on_value=on_value, off_value=off_value, device=device)
    y2 = one_hot(target.flip(0), num_classes, on_value=on_value, off_value=off_value, device=device)
    return y1 * lam + y2 * (1. - lam)

class Mixup:
    def __init__(self, mixup_alpha=0.8, label_smoothing=0.1, num_classes=1000):
        self.mixup_alpha = mixup_alpha
        self.label_smoothing = label_smoothing
        self.num_classes = num_classes

    def __call__(self, x, target):
        lam = float(np.random.beta(self.mixup_alpha, self.mixup_alpha))
        x_flipped = x.flip(0).mul_(1. - lam)
        x.mul_(lam).add_(x_flipped)
        target = mixup_target(target, self.num_classes, lam, self.label_smoothing, x.device)
        return x, target

device = torch.device("cuda:1")
model = nn.Sequential(nn.Conv2d(3, 8, 4, stride=4), nn.Flatten(), nn.Linear(8 * 4 * 4, 10)).to(device)
mixup_fn = Mixup(mixup_alpha=0.8, label_smoothing=0.1, num_classes=10)
samples = torch.randn(4, 3, 16, 16).to(device)
targets = torch.tensor([1, 3, 5, 7]).to(device)
'''
CELL = '''
samples, targets = mixup_fn(samples, targets)
outputs = model(samples)
loss = torch.sum(-targets * outputs.log_softmax(dim=-1), dim=-1).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
