"""Look-alike: labels converted with .long() and moved with the batch; CrossEntropyLoss is happy.

Source: https://github.com/SeldonIO/alibi-detect/issues/411
The fix for the int32-labels report (numpy on Windows): cast the labels to int64. Logits float32
on the GPU, int64 targets on the GPU, a float32 class-weight buffer moved with the loss module:
mixed dtypes on purpose, nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

clf = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2)).to("cuda:0")
loss_fn = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0])).to("cuda:0")
x = torch.randn(32, 10).to("cuda:0")
y = torch.from_numpy(np.random.randint(0, 2, size=32).astype(np.int32)).long().to("cuda:0")
'''
CELL = '''
loss = loss_fn(clf(x), y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
