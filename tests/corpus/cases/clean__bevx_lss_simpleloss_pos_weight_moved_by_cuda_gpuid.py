"""Lift-Splat-Shoot training: `SimpleLoss` builds its `pos_weight` as a CPU `torch.Tensor`, but `.cuda(gpuid)` moves the loss module with it.

Source: https://github.com/nv-tlabs/lift-splat-shoot/blob/master/src/train.py
`SimpleLoss.__init__` creates `torch.nn.BCEWithLogitsLoss(pos_weight=torch.Tensor([pos_weight]))`
(a CPU tensor, no device); `train()` then does `loss_fn = SimpleLoss(pos_weight).cuda(gpuid)`,
which moves the loss's `pos_weight` buffer, and moves `binimgs` from the loader with
`.to(device)` before `loss_fn(preds, binimgs)`. Look-alike: a class weight created on the CPU
inside a loss module that is itself moved; it runs.
Stand-in: `SimpleLoss` as in src/tools.py; the LSS model is reduced to a BEV head producing the
(B, 1, 200, 200) logits; `.cuda(gpuid)` is written `.to(device)` (the same cuda:gpuid).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


class SimpleLoss(torch.nn.Module):
    def __init__(self, pos_weight):
        super(SimpleLoss, self).__init__()
        self.loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.Tensor([pos_weight]))

    def forward(self, ypred, ytgt):
        loss = self.loss_fn(ypred, ytgt)
        return loss


class BevHead(nn.Module):
    """Stand-in for LiftSplatShoot: BEV features in, vehicle-segmentation logits out."""
    def __init__(self, inC=64, outC=1):
        super().__init__()
        self.up = nn.Sequential(nn.Conv2d(inC, 32, 3, padding=1), nn.ReLU(inplace=True),
                                nn.Conv2d(32, outC, 1))

    def forward(self, bev):
        return self.up(bev)


gpuid = 0
pos_weight = 2.13
device = torch.device('cpu') if gpuid < 0 else torch.device(f'cuda:{gpuid}')
model = BevHead(inC=64, outC=1)
model.to(device)
loss_fn = SimpleLoss(pos_weight).to(device)       # SimpleLoss(pos_weight).cuda(gpuid)

# one batch from the loader (CPU): splatted BEV features and the binary vehicle masks
bev_feats = torch.randn(4, 64, 200, 200)
binimgs = (torch.rand(4, 1, 200, 200) > 0.9).float()
'''
CELL = '''
preds = model(bev_feats.to(device))
binimgs = binimgs.to(device)
loss = loss_fn(preds, binimgs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
