"""Look-alike: a CrossEntropy loss keeps class_weight as a plain Python list and builds the tensor on the score's device.

Source: https://github.com/open-mmlab/mmaction2/pull/1188
"[Fix] Fix device bug for class weight": mmaction2's `CrossEntropyLoss` stores `class_weight`
from the config as a list (numbers typed into a config / computed with numpy) and, in `_forward`,
turns it into a tensor placed on the scores' device at call time, so the weight lands on
whatever device the scores are on. The loss module has no tensor attribute for `Module.to()` to
miss; nothing to report. Stand-in: the loss and a recognizer head on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

class CrossEntropyLoss(nn.Module):
    def __init__(self, loss_weight=1.0, class_weight=None):
        super().__init__()
        self.loss_weight = loss_weight
        self.class_weight = class_weight

    def forward(self, cls_score, label, **kwargs):
        if self.class_weight is not None:
            assert 'weight' not in kwargs, "The key 'weight' already exists."
            kwargs['weight'] = torch.tensor(self.class_weight).to(cls_score.device)
        return F.cross_entropy(cls_score, label, **kwargs) * self.loss_weight

counts = np.array([120, 30, 50, 400])
class_weight = (counts.sum() / (len(counts) * counts)).tolist()   # from the annotation file
head = nn.Linear(256, 4).to("cuda:0")
loss_cls = CrossEntropyLoss(class_weight=class_weight)
feats = torch.randn(8, 256, device="cuda:0")
labels = torch.randint(0, 4, (8,), device="cuda:0")
'''
CELL = '''
cls_score = head(feats)
loss = loss_cls(cls_score, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
