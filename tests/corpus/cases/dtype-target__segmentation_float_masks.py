"""Semantic segmentation: the ground-truth masks are float tensors of class ids.

Source: https://github.com/pytorch/pytorch/issues/103813
Predicted masks [4, 59, H, W] (float) and ground truth [4, H, W] (float) passed to
CrossEntropyLoss: "RuntimeError: expected scalar type Long but found Float" (today: "expected
target dtype to be Long or Byte, but got Float"). Class-index targets must be int64; only
class-probability targets of the input's shape may be float.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

criterion = nn.CrossEntropyLoss()
pred = torch.randn(4, 59, 32, 32)
target = torch.randint(0, 59, (4, 32, 32)).to(torch.float32)
'''
CELL = '''
loss = criterion(pred, target)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte, but got Float"
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.long()
'''
REFERENCE_EDIT = None
CLEAN = False
