"""Look-alike: masks stored as uint8 in the dataset, cast to int64 in the training step.

Source: https://github.com/pytorch/pytorch/issues/59765
The reporter keeps class targets as byte tensors to save memory; CrossEntropyLoss needs int64, so
the training step casts the batch's masks with `.long()` right before the loss. The uint8 tensor in
the namespace is deliberate storage and needs no change.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

num_classes = 4
net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)

label_maps = np.random.randint(0, num_classes, size=(2, 32, 32)).astype(np.uint8)
images = torch.randn(2, 3, 32, 32)
masks = torch.from_numpy(label_maps)
'''
CELL = '''
optimizer.zero_grad()
logits = net(images)
loss = criterion(logits, masks.long())
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
