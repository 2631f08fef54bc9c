"""nnU-Net v2 `train_step` with deep supervision: the batch's list of CPU targets is moved element by element; the loss weights are numpy floats.

Source: https://github.com/MIC-DKFZ/nnUNet/blob/master/nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py
`nnUNetTrainer.train_step` receives `batch['target']` as a list of CPU segmentations (one per
deep-supervision scale, made by `DownsampleSegForDSTransform` in the CPU data loader) and moves it with
`target = [i.to(self.device, non_blocking=True) for i in target]`; the loss is
`DeepSupervisionWrapper(loss, weights)` where `weights` is a normalised numpy array
(`np.array([1 / (2 ** i) ...])`, last scale 0) and the int16 targets are one-hot encoded with
`y_onehot.scatter_(1, y.long(), 1)` on the network output's device. Look-alike: a CPU list batch,
numpy scalars times cuda losses and integer labels; the list is moved and it runs.
Stand-ins: `train_step` without the optimizer/grad-scaler part (no autograd in the simulation),
`DeepSupervisionWrapper` and `MemoryEfficientSoftDiceLoss` from nnunetv2/training/loss (here with
`do_bg=True`; the `[:, 1:]` background slicing cannot run on fake cuda tensors), softmax as
`apply_nonlin`, and a three-scale network.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class MemoryEfficientSoftDiceLoss(nn.Module):
    def __init__(self, apply_nonlin=None, batch_dice=False, do_bg=True, smooth=1., ddp=False):
        super().__init__()
        self.do_bg = do_bg
        self.batch_dice = batch_dice
        self.apply_nonlin = apply_nonlin
        self.smooth = smooth
        self.ddp = ddp

    def forward(self, x, y, loss_mask=None):
        if self.apply_nonlin is not None:
            x = self.apply_nonlin(x)
        axes = tuple(range(2, x.ndim))
        with torch.no_grad():
            if x.ndim != y.ndim:
                y = y.view((y.shape[0], 1, *y.shape[1:]))
            if x.shape == y.shape:
                y_onehot = y
            else:
                y_onehot = torch.zeros(x.shape, device=x.device, dtype=torch.bool)
                y_onehot.scatter_(1, y.long(), 1)
            sum_gt = y_onehot.sum(axes) if loss_mask is None else (y_onehot * loss_mask).sum(axes)
        intersect = (x * y_onehot).sum(axes) if loss_mask is None else (x * y_onehot * loss_mask).sum(axes)
        sum_pred = x.sum(axes) if loss_mask is None else (x * loss_mask).sum(axes)
        if self.batch_dice:
            intersect = intersect.sum(0)
            sum_pred = sum_pred.sum(0)
            sum_gt = sum_gt.sum(0)
        dc = (2 * intersect + self.smooth) / (torch.clip(sum_gt + sum_pred + self.smooth, 1e-8))
        dc = dc.mean()
        return -dc


class DeepSupervisionWrapper(nn.Module):
    def __init__(self, loss, weight_factors=None):
        super().__init__()
        assert any([x != 0 for x in weight_factors]), "At least one weight factor should be != 0.0"
        self.weight_factors = tuple(weight_factors)
        self.loss = loss

    def forward(self, *args):
        assert all([isinstance(i, (tuple, list)) for i in args])
        if self.weight_factors is None:
            weights = (1, ) * len(args[0])
        else:
            weights = self.weight_factors
        return sum([weights[i] * self.loss(*inputs) for i, inputs in enumerate(zip(*args)) if weights[i] != 0.0])


class DSUNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.s1 = nn.Conv3d(1, 8, 3, padding=1)
        self.s2 = nn.Conv3d(8, 16, 3, stride=2, padding=1)
        self.s3 = nn.Conv3d(16, 16, 3, stride=2, padding=1)
        self.seg_layers = nn.ModuleList([nn.Conv3d(c, n_classes, 1) for c in (8, 16, 16)])

    def forward(self, x):
        f1 = F.relu(self.s1(x))
        f2 = F.relu(self.s2(f1))
        f3 = F.relu(self.s3(f2))
        return [seg(f) for seg, f in zip(self.seg_layers, (f1, f2, f3))]


class nnUNetTrainer:
    def __init__(self, network, device):
        self.device = device
        self.network = network
        deep_supervision_scales = [[1, 1, 1], [0.5, 0.5, 0.5], [0.25, 0.25, 0.25]]
        weights = np.array([1 / (2 ** i) for i in range(len(deep_supervision_scales))])
        weights[-1] = 0
        weights = weights / weights.sum()
        self.loss = DeepSupervisionWrapper(
            MemoryEfficientSoftDiceLoss(apply_nonlin=lambda t: torch.softmax(t, 1), batch_dice=True, do_bg=True),
            weights)

    def train_step(self, batch: dict) -> dict:
        data = batch['data']
        target = batch['target']

        data = data.to(self.device, non_blocking=True)
        if isinstance(target, list):
            target = [i.to(self.device, non_blocking=True) for i in target]
        else:
            target = target.to(self.device, non_blocking=True)

        output = self.network(data)
        l = self.loss(output, target)
        return {'loss': l.detach()}


device = torch.device('cuda', 0)
trainer = nnUNetTrainer(DSUNet().to(device), device)
batch = {
    'data': torch.randn(2, 1, 32, 32, 32),
    'target': [torch.randint(0, 3, (2, 1, s, s, s)).to(torch.int16) for s in (32, 16, 8)],
}
'''
CELL = '''
with torch.no_grad():
    out = trainer.train_step(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
