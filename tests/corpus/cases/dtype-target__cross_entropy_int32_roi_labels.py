"""A Faster R-CNN loss passes int32 ROI labels to `F.cross_entropy`.

Source: https://github.com/pytorch/pytorch/issues/1842
"Some functions only accept or return LongTensor variable, is it drawback?": in the user's
faster_rcnn_pytorch `rcnn_build_loss`, `cross_entropy = F.cross_entropy(score, label)` failed
because `label` was an `IntTensor` (built from int32 numpy arrays); the NLL kernel only takes
int64 class indices. The maintainers kept the requirement; the labels must be cast with `.long()`.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

num_rois, num_classes = 128, 21
score = torch.randn(num_rois, num_classes, requires_grad=True)          # rcnn_cls_score
roi_labels = np.random.randint(0, num_classes, size=num_rois).astype(np.int32)
label = torch.from_numpy(roi_labels)                                      # IntTensor
'''
CELL = '''
cross_entropy = F.cross_entropy(score, label)
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long but found Int")
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
label = label.long()
'''
REFERENCE_EDIT = None
CLEAN = False
