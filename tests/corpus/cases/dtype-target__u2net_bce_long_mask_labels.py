"""U-2-Net binary segmentation: the mask tensor passed to `nn.BCELoss` is int64.

Source: https://github.com/xuebinqin/U-2-Net/issues/25
Training U-2-Net for binary segmentation, the user passed the mask as a tensor to
`muti_bce_loss_fusion(d0, ..., labels_v)` and `bce_loss(d0, labels_v)` raised "expected dtype Half but
got dtype Long" (their outputs were fp16): BCELoss needs a floating target of the prediction's
dtype, and the 0/1 masks were integer. The fix is to give the loss float masks.
Stand-in: the fused multi-output BCE and a two-output sigmoid net (float32, so the message says Float).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

bce_loss = nn.BCELoss(reduction="mean")

def muti_bce_loss_fusion(d0, d1, labels_v):
    loss0 = bce_loss(d0, labels_v)
    loss1 = bce_loss(d1, labels_v)
    return loss0, loss0 + loss1

class TinyU2Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.side1 = nn.Conv2d(8, 1, 3, padding=1)
        self.outconv = nn.Conv2d(1, 1, 1)

    def forward(self, x):
        d1 = self.side1(self.stage(x))
        d0 = self.outconv(d1)
        return torch.sigmoid(d0), torch.sigmoid(d1)

net = TinyU2Net()
inputs_v = torch.randn(2, 3, 32, 32)
labels_v = torch.from_numpy((np.random.rand(2, 1, 32, 32) > 0.5).astype(np.int64))
'''
CELL = '''
d0, d1 = net(inputs_v)
loss2, loss = muti_bce_loss_fusion(d0, d1, labels_v)
loss.backward()
'''
EXPECT_ERROR = ("Found dtype Long but expected Float", "expected dtype")
CULPRITS = ["labels_v"]
FIX = "namespace"
REFERENCE_FIX = '''
labels_v = labels_v.float()
'''
REFERENCE_EDIT = None
CLEAN = False
