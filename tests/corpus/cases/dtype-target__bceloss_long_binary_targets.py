"""Binary classifier with `nn.BCELoss`: the 0/1 targets are a LongTensor.

Source: https://github.com/pytorch/pytorch/issues/2220
"BCELoss target requires float format": "It should accept LongTensor or IntTensor for a binary
classification (0 or 1) right?" — the loss rejected the integer targets (then as an invalid
argument combination, today "Found dtype Long but expected Float"); the answer is that the targets
of BCELoss are probabilities and must be floating point, `target.float()`. Stand-in: a small
classifier with a sigmoid output; CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
inputs = torch.randn(32, 10)
target = torch.randint(0, 2, (32, 1))        # LongTensor of 0/1 labels
'''
CELL = '''
output = model(inputs)
loss = criterion(output, target)
loss.backward()
'''
EXPECT_ERROR = ("Found dtype Long but expected Float", "expected scalar type Float")
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.float()
'''
REFERENCE_EDIT = None
CLEAN = False
