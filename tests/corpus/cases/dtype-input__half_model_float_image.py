"""A depth model converted with .half() is fed the float32 image its transform produced.

Source: https://github.com/DepthAnything/Depth-Anything-V2/issues/264
"Input type (float) and bias type (struct c10::Half) should be the same": the network had been
put in half precision, the preprocessed image was still float32. Stand-in: a small conv encoder
and head (no Depth-Anything code).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, 16, kernel_size=4, stride=4)
        self.head = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))

    def forward(self, x):
        return self.head(self.patch_embed(x))

depth_model = DepthNet().half().eval()
image = torch.rand(1, 3, 32, 32)
'''
CELL = '''
with torch.no_grad():
    depth = depth_model(image)
'''
EXPECT_ERROR = "Input type (float) and bias type (c10::Half) should be the same"
CULPRITS = ["image"]
FIX = "namespace"
REFERENCE_FIX = '''
image = image.half()
'''
REFERENCE_EDIT = None
CLEAN = False
