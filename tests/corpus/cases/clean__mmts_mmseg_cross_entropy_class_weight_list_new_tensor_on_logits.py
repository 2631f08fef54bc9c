"""Look-alike: mmsegmentation's CrossEntropyLoss keeps `class_weight` as a Python list and builds the tensor on the logits' device per call.

Source: https://github.com/open-mmlab/mmsegmentation/blob/main/mmseg/models/losses/cross_entropy_loss.py
`CrossEntropyLoss(class_weight=[...])` stores the weights with `get_class_weight` (a list, never a
module buffer), and `forward` does `class_weight = cls_score.new_tensor(self.class_weight)` before
calling `F.cross_entropy(..., weight=class_weight, ignore_index=255)`. A per-class weight that is not
on the GPU until the loss is computed, by design. Nothing to report. Stand-in: a decode head and the
loss module; the GPU is simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class CrossEntropyLoss(nn.Module):
    def __init__(self, use_sigmoid=False, class_weight=None, loss_weight=1.0, avg_non_ignore=False):
        super().__init__()
        self.class_weight = list(class_weight) if class_weight is not None else None
        self.loss_weight = loss_weight
        self.avg_non_ignore = avg_non_ignore

    def forward(self, cls_score, label, ignore_index=255):
        if self.class_weight is not None:
            class_weight = cls_score.new_tensor(self.class_weight)
        else:
            class_weight = None
        loss = F.cross_entropy(cls_score, label, weight=class_weight, reduction='none',
                               ignore_index=ignore_index)
        return self.loss_weight * loss.mean()

class PSPHead(nn.Module):
    def __init__(self, in_channels=16, num_classes=4, loss_decode=None):
        super().__init__()
        self.conv_seg = nn.Conv2d(in_channels, num_classes, 1)
        self.loss_decode = CrossEntropyLoss(**loss_decode)

    def loss(self, feats, seg_label):
        seg_logits = self.conv_seg(feats)
        return {"loss_ce": self.loss_decode(seg_logits, seg_label)}

device = torch.device("meta")            # cuda:0, simulated with meta
decode_head = PSPHead(loss_decode=dict(use_sigmoid=False, loss_weight=1.0,
                                       class_weight=[1, 1, 3, 1])).to(device)
feats = torch.randn(2, 16, 8, 8, device=device)
seg_label = torch.randint(0, 4, (2, 8, 8), device=device)
'''
CELL = '''
losses = decode_head.loss(feats, seg_label)
print(losses["loss_ce"].shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
