"""Look-alike: timm `Mixup` draws its mixing coefficient with NumPy's RNG and builds the smoothed one-hot targets on the labels' device.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/data/mixup.py
`Mixup._params_per_batch` samples `lam = float(np.random.beta(alpha, alpha))` on the host;
`_mix_batch` mixes the GPU batch in place (`x_flipped = x.flip(0).mul_(1. - lam); x.mul_(lam).add_(x_flipped)`)
and `mixup_target` builds label-smoothed one-hot targets with `torch.full(..., device=x.device).scatter_`
from the GPU labels. The training step then uses `SoftTargetCrossEntropy`. NumPy scalars and a CPU
RNG next to GPU tensors are fine here. timm's `Mixup` is reduced to the batch-mode mixup branch (no
cutmix); `one_hot`, `mixup_target` and `SoftTargetCrossEntropy` are timm's code.
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
    def __init__(self, mixup_alpha=1., prob=1.0, label_smoothing=0.1, num_classes=1000):
        self.mixup_alpha = mixup_alpha
        self.mix_prob = prob
        self.label_smoothing = label_smoothing
        self.num_classes = num_classes
        self.mixup_enabled = True

    def _params_per_batch(self):
        lam = 1.
        if self.mixup_enabled and np.random.rand() < self.mix_prob:
            lam_mix = np.random.beta(self.mixup_alpha, self.mixup_alpha)
            lam = float(lam_mix)
        return lam

    def _mix_batch(self, x):
        lam = self._params_per_batch()
        if lam == 1.:
            return 1.
        x_flipped = x.flip(0).mul_(1. - lam)
        x.mul_(lam).add_(x_flipped)
        return lam

    def __call__(self, x, target):
        assert len(x) % 2 == 0, 'Batch size should be even when using this'
        lam = self._mix_batch(x)
        target = mixup_target(target, self.num_classes, lam, self.label_smoothing)
        return x, target


class SoftTargetCrossEntropy(nn.Module):
    def forward(self, x, target):
        loss = torch.sum(-target * F.log_softmax(x, dim=-1), dim=-1)
        return loss.mean()


np.random.seed(0)
device = torch.device("cuda:0")
mixup_fn = Mixup(mixup_alpha=0.8, prob=1.0, label_smoothing=0.1, num_classes=10)
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10)).to(device)
train_loss_fn = SoftTargetCrossEntropy()
input, target = torch.rand(8, 3, 32, 32), torch.randint(0, 10, (8,))
'''
CELL = '''
input, target = input.to(device), target.to(device)
input, target = mixup_fn(input, target)
output = model(input)
loss = train_loss_fn(output, target)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
