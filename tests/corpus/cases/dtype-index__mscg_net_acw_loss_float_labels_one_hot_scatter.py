"""MSCG-Net: the ACW loss one-hot encodes the segmentation labels with `scatter_`, and the labels are float.

Source: https://github.com/samleoqh/MSCG-Net/issues/7
Training `train_R50.py` on the reporter's data, `main_loss = criterion(outputs, labels)` failed in
`ACW_loss.encode_one_hot_label` at `one_hot_label.scatter_(1, target.unsqueeze(1), 1)` with "Expected
object of scalar type Long but got scalar type Float for argument #3 'index'": the label masks reached
the loss as float (the repo's own loader casts them with `np.asarray(label_p, dtype='int64')`).
The SCG-GCN network is a small stand-in; the loader is reduced to a float mask batch. Run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class ACW_loss(nn.Module):
    def __init__(self, ini_weight=0, ini_iteration=0, eps=1e-5, ignore_index=255):
        super(ACW_loss, self).__init__()
        self.ignore_index = ignore_index
        self.weight = ini_weight
        self.itr = ini_iteration
        self.eps = eps

    def forward(self, prediction, target):
        pred = F.softmax(prediction, 1)
        one_hot_label, mask = self.encode_one_hot_label(pred, target)
        acw = self.adaptive_class_weight(pred, one_hot_label, mask)
        err = torch.pow((one_hot_label - pred), 2)
        pnc = err - ((1. - err + self.eps) / (1. + err + self.eps)).log()
        loss_pnc = torch.sum(acw * pnc, 1)
        intersection = 2 * torch.sum(pred * one_hot_label, dim=(0, 2, 3)) + self.eps
        union = pred + one_hot_label
        if mask is not None:
            union[mask] = 0
        union = torch.sum(union, dim=(0, 2, 3)) + self.eps
        dice = intersection / union
        return loss_pnc.mean() - dice.mean().log()

    def adaptive_class_weight(self, pred, one_hot_label, mask=None):
        self.itr += 1
        sum_class = torch.sum(one_hot_label, dim=(0, 2, 3))
        sum_norm = sum_class / sum_class.sum()
        self.weight = (self.weight * (self.itr - 1) + sum_norm) / self.itr
        mfb = self.weight.mean() / (self.weight + self.eps)
        mfb = mfb / mfb.sum()
        mfb = torch.clamp(mfb, min=0.001, max=1.0)
        acw = (1. + pred + one_hot_label) * mfb.unsqueeze(-1).unsqueeze(-1)
        if mask is not None:
            acw[mask] = 0
        return acw

    def encode_one_hot_label(self, pred, target):
        one_hot_label = pred.detach() * 0
        if self.ignore_index is not None:
            mask = (target == self.ignore_index)
            target = target.clone()
            target[mask] = 0
            one_hot_label.scatter_(1, target.unsqueeze(1), 1)
            mask = mask.unsqueeze(1).expand_as(one_hot_label)
            one_hot_label[mask] = 0
            return one_hot_label, mask
        else:
            one_hot_label.scatter_(1, target.unsqueeze(1), 1)
            return one_hot_label, None

net = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 7, 1))   # rx50_gcn_3head_4channel
criterion = ACW_loss()
optimizer = torch.optim.SGD(net.parameters(), lr=1e-3)

rng = np.random.default_rng(0)
label_np = rng.integers(0, 7, size=(2, 16, 16))
label_np[:, :2, :2] = 255                                     # ignore_index pixels
inputs = torch.from_numpy(rng.random((2, 4, 16, 16), dtype=np.float32))
labels = torch.from_numpy(np.asarray(label_np, np.float32))   # the masks arrive as float
'''
CELL = '''
optimizer.zero_grad()
outputs = net(inputs)
main_loss = criterion(outputs, labels)
main_loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Expected dtype int32/int64 for index", "Expected dtype int64 for index",
                "scalar type Long")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
