"""Ultra-Fast-Lane-Detection on Windows: the row-anchor class labels arrive as int32.

Source: https://github.com/cfzd/Ultra-Fast-Lane-Detection/issues/127
`loss = self.nll(log_score, labels)` in `SoftmaxFocalLoss` raised "Expected object of scalar type Long
but got scalar type Int for argument #2 'target'": on Windows the label map built with NumPy
defaults to int32, and `torch.from_numpy` keeps it, while `nll_loss2d` needs int64 targets. The
labels must be cast with `.long()`. Stand-in: the classification head output (griding_num + 1
classes over row anchors x lanes) and the focal loss.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class SoftmaxFocalLoss(nn.Module):
    def __init__(self, gamma, ignore_lb=255):
        super().__init__()
        self.gamma = gamma
        self.nll = nn.NLLLoss(ignore_index=ignore_lb)

    def forward(self, logits, labels):
        scores = F.softmax(logits, dim=1)
        factor = torch.pow(1. - scores, self.gamma)
        log_score = F.log_softmax(logits, dim=1)
        log_score = factor * log_score
        loss = self.nll(log_score, labels)
        return loss

griding_num, num_row, num_lanes = 100, 18, 4
cls_out = torch.randn(2, griding_num + 1, num_row, num_lanes, requires_grad=True)
label_np = np.random.randint(0, griding_num + 1, size=(2, num_row, num_lanes)).astype(np.int32)  # np default int on Windows
cls_label = torch.from_numpy(label_np)
loss_fn = SoftmaxFocalLoss(2)
'''
CELL = '''
loss = loss_fn(cls_out, cls_label)
loss.backward()
'''
EXPECT_ERROR = ("expected scalar type Long but found Int",
                "expected target dtype to be Long or Byte, but got Int")
CULPRITS = ["cls_label"]
FIX = "namespace"
REFERENCE_FIX = '''
cls_label = cls_label.long()
'''
REFERENCE_EDIT = None
CLEAN = False
