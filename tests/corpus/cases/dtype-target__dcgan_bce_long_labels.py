"""DCGAN tutorial: BCELoss labels made with torch.full from an int label are int64.

Source: https://github.com/pytorch/pytorch/issues/45373
"RuntimeError: Found dtype Long but expected Float" at `errD_real = criterion(output, label)`:
with `real_label = 1` (an int), `torch.full((b_size,), real_label)` builds an int64 tensor on
PyTorch >= 1.7, and BCELoss needs float targets. The fix: `real_label = 1.` or `dtype=torch.float`.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

netD = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 1), nn.Sigmoid())
criterion = nn.BCELoss()
real_label = 1
real_cpu = torch.randn(4, 3, 8, 8)
b_size = real_cpu.size(0)
label = torch.full((b_size,), real_label)
'''
CELL = '''
output = netD(real_cpu).view(-1)
errD_real = criterion(output, label)
errD_real.backward()
'''
EXPECT_ERROR = "Found dtype Long but expected Float"
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
label = label.float()
'''
REFERENCE_EDIT = None
CLEAN = False
