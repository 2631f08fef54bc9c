"""Point-cloud/semantic segmentation labels stored as int32 reach nll_loss.

Source: https://github.com/open-mmlab/mmdetection3d/issues/1600
"RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target'
in call to _thnn_nll_loss2d_forward" (a later comment: "expected scalar type Long but found Int"):
the per-point labels were loaded as int32 by the data pipeline. Stand-in: log-probabilities over a
grid and int32 label maps (no mmdet3d).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

seg_logits = torch.randn(2, 13, 16, 16)
pts_semantic_mask = torch.from_numpy(np.random.randint(0, 13, (2, 16, 16)).astype(np.int32))
'''
CELL = '''
loss = F.nll_loss(F.log_softmax(seg_logits, dim=1), pts_semantic_mask)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte, but got Int"
CULPRITS = ["pts_semantic_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
pts_semantic_mask = pts_semantic_mask.long()
'''
REFERENCE_EDIT = None
CLEAN = False
