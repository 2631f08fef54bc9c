"""Class labels built from numpy on Windows are int32; CrossEntropyLoss wants int64.

Source: https://github.com/SeldonIO/alibi-detect/issues/411
"RuntimeError: expected scalar type Long but found Int" at `loss_fn(y_hat, y)` (today: "expected
target dtype to be Long or Byte, but got Int"): on Windows numpy's default integer is int32, so
the labels built with np.array(...) arrived as torch.int32. Linux users never saw it.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

clf = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
loss_fn = nn.CrossEntropyLoss()
x = torch.randn(32, 10)
y = torch.from_numpy(np.random.randint(0, 2, size=32).astype(np.int32))
'''
CELL = '''
y_hat = clf(x)
loss = loss_fn(y_hat, y)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte, but got Int"
CULPRITS = ["y"]
FIX = "namespace"
REFERENCE_FIX = '''
y = y.long()
'''
REFERENCE_EDIT = None
CLEAN = False
