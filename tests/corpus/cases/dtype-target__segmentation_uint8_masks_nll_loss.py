"""Segmentation masks kept as uint8 (to save memory) passed straight to CrossEntropyLoss.

Source: https://github.com/pytorch/pytorch/issues/59765
The reporter stores pre-computed class targets as byte tensors to save memory; NLLLoss /
CrossEntropyLoss only take int64 class indices and raise "expected scalar type Long but found
Byte". The masks come from PIL/NumPy as uint8 label maps; the fix on the user's side is
`masks.long()` before the loss (the feature request to accept Byte was not implemented).
"""

SIM = "cpu"
FAMILY = "dtype-target"
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
loss = criterion(logits, masks)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "expected scalar type Long but found Byte"
CULPRITS = ["masks"]
FIX = "namespace"
REFERENCE_FIX = '''
masks = masks.long()
'''
REFERENCE_EDIT = None
CLEAN = False
