"""16-bit grayscale images come out of torchvision's `ToTensor` as int16 and are fed to a float conv net.

Source: https://github.com/pytorch/vision/issues/317
"torchvision/transform.py - to_tensor() - return type is not float": the user trained on 'I;16'
PIL images and got "Input type (Short) and weight type (Float) should be the same". A maintainer
(alykhantejani) explained that `to_tensor` deliberately keeps 'I'/'I;16' images as integer tensors
without rescaling (for MRI-like data) and that the user must call `.float()` on the result
(closed as won't-fix). Stand-in: the 'I;16' branch of `to_tensor` of that time, on a numpy array
in place of the PIL image.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def to_tensor(pic):
    """torchvision 0.2 to_tensor, 'I;16' branch (pic given as its uint16 pixel array)."""
    img = torch.from_numpy(np.asarray(pic, np.int16))   # np.array(pic, np.int16, copy=False)
    img = img.view(pic.shape[0], pic.shape[1], 1)
    return img.transpose(0, 1).transpose(0, 2).contiguous()

net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                    nn.Flatten(), nn.Linear(8, 2))

pic = np.random.randint(0, 30000, size=(32, 32)).astype(np.uint16)   # Image.open(path), mode 'I;16'
inputs = torch.stack([to_tensor(pic), to_tensor(pic)])
'''
CELL = '''
outputs = net(inputs)
'''
EXPECT_ERROR = "Input type (short int) and bias type (float) should be the same"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.float()
'''
REFERENCE_EDIT = None
CLEAN = False
