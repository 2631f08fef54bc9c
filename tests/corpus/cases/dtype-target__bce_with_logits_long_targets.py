"""BCEWithLogitsLoss with integer 0/1 targets (the apex DCGAN example on PyTorch 1.8).

Source: https://github.com/NVIDIA/apex/issues/1039
"RuntimeError: result type Float can't be cast to the desired output type Long" from the BCE loss
of examples/DCGAN/main_amp.py: the labels were built from ints (torch.full with an int fill), the
loss computes in float and cannot write a float result into the int64 target's dtype.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

netD = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 1))
criterion = nn.BCEWithLogitsLoss()
real_label = 1
data = torch.randn(4, 3, 8, 8)
label = torch.full((data.size(0),), real_label)
'''
CELL = '''
output = netD(data).view(-1)
errD_real = criterion(output, label)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
label = label.float()
'''
REFERENCE_EDIT = None
CLEAN = False
