"""MONAI `DeepSupervisionLoss` around a DynUNet-style list of outputs: python-float weights, accumulator made on `target.device`.

Source: https://github.com/Project-MONAI/MONAI/blob/dev/monai/losses/ds_loss.py
`DeepSupervisionLoss.forward` takes the list of deep-supervision outputs, computes python-float
weights (`[max(0.5**l, 0.0625) for l in range(levels)]`), creates its accumulator with
`torch.tensor(0, dtype=torch.float, device=target.device)` and, for each coarser head, shrinks the
full-resolution label with `F.interpolate(target, size=input.shape[2:], mode="nearest-exact")` on the
label's own device. Look-alike: a tensor made inside the loss and per-level targets derived on the
fly, all on the cuda label's device; nothing is left on the CPU and it runs.
Stand-ins: `DeepSupervisionLoss` as in MONAI (the `pytorch_after` check fixed to "nearest-exact"), a
sigmoid soft Dice in place of `DiceLoss(sigmoid=True)`, and a three-level network returning a list.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.modules.loss import _Loss


class DiceLoss(_Loss):
    def __init__(self, sigmoid=True, smooth_nr=1e-5, smooth_dr=1e-5):
        super().__init__()
        self.sigmoid, self.smooth_nr, self.smooth_dr = sigmoid, smooth_nr, smooth_dr

    def forward(self, input, target):
        if self.sigmoid:
            input = torch.sigmoid(input)
        reduce_axis = list(range(2, len(input.shape)))
        intersection = torch.sum(target * input, dim=reduce_axis)
        denominator = torch.sum(target, dim=reduce_axis) + torch.sum(input, dim=reduce_axis)
        f = 1.0 - (2.0 * intersection + self.smooth_nr) / (denominator + self.smooth_dr)
        return torch.mean(f)


class DeepSupervisionLoss(_Loss):
    def __init__(self, loss, weight_mode="exp", weights=None):
        super().__init__()
        self.loss = loss
        self.weight_mode = weight_mode
        self.weights = weights
        self.interp_mode = "nearest-exact"

    def get_weights(self, levels=1):
        levels = max(1, levels)
        if self.weights is not None and len(self.weights) >= levels:
            weights = self.weights[:levels]
        elif self.weight_mode == "same":
            weights = [1.0] * levels
        elif self.weight_mode == "exp":
            weights = [max(0.5**l, 0.0625) for l in range(levels)]
        elif self.weight_mode == "two":
            weights = [1.0 if l == 0 else 0.5 for l in range(levels)]
        else:
            weights = [1.0] * levels
        return weights

    def get_loss(self, input, target):
        if input.shape[2:] != target.shape[2:]:
            target = F.interpolate(target, size=input.shape[2:], mode=self.interp_mode)
        return self.loss(input, target)

    def forward(self, input, target):
        if isinstance(input, (list, tuple)):
            weights = self.get_weights(levels=len(input))
            loss = torch.tensor(0, dtype=torch.float, device=target.device)
            for l in range(len(input)):
                loss += weights[l] * self.get_loss(input[l].float(), target)
            return loss
        if input is None:
            raise ValueError("input shouldn't be None.")
        return self.loss(input.float(), target)


class DSNet(nn.Module):
    """Three output heads at full, 1/2 and 1/4 resolution, like DynUNet with deep_supervision=True."""
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Conv3d(1, 8, 3, padding=1)
        self.enc2 = nn.Conv3d(8, 16, 3, stride=2, padding=1)
        self.enc3 = nn.Conv3d(16, 16, 3, stride=2, padding=1)
        self.heads = nn.ModuleList([nn.Conv3d(c, 1, 1) for c in (8, 16, 16)])

    def forward(self, x):
        f1 = F.relu(self.enc1(x))
        f2 = F.relu(self.enc2(f1))
        f3 = F.relu(self.enc3(f2))
        return [head(f) for head, f in zip(self.heads, (f1, f2, f3))]


device = torch.device("cuda:0")
model = DSNet().to(device)
loss_function = DeepSupervisionLoss(DiceLoss(sigmoid=True))
batch_data = {"image": torch.randn(2, 1, 32, 32, 32), "label": torch.randint(0, 2, (2, 1, 32, 32, 32)).float()}
'''
CELL = '''
inputs, labels = batch_data["image"].to(device), batch_data["label"].to(device)
with torch.no_grad():
    outputs = model(inputs)
    loss = loss_function(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
