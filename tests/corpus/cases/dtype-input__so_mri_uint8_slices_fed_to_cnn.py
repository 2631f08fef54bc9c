"""MRI slices kept as uint8 are fed straight into a CNN: conv2d refuses the ByteTensor input.

Source: https://github.com/pytorch/pytorch/issues/14186
"Why pytorch does not accept input image as uint8 type": the user fit MRI data stored as uint8
into a CNN and got an error that conv2d does not accept `torch.ByteTensor`; converting with
`img.float()` made it run. Answer (SsnL): integer dtypes are not used by the layers (no gradients);
cast to float (and scale by 1/255 for standard images). Stand-in: a uint8 MRI batch as loaded from
the volume files and a small 2-D CNN classifier.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

volume = np.random.randint(0, 256, size=(8, 1, 64, 64), dtype=np.uint8)   # MRI slices as stored
img = torch.from_numpy(volume)

class CNN(nn.Module):
    def __init__(self):
        super(CNN, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 2)
    def forward(self, x):
        return self.fc(self.features(x).flatten(1))

model = CNN()
'''
CELL = '''
output = model(img)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "not implemented for 'Byte'")
CULPRITS = ["img"]
FIX = "namespace"
REFERENCE_FIX = '''
img = img.float()
'''
REFERENCE_EDIT = None
CLEAN = False
