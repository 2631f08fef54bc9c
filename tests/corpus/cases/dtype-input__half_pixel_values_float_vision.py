"""Half-precision pixel values fed to a vision tower that was left in float32.

Source: https://github.com/zai-org/CogVLM/issues/282
"Input type (c10::Half) and bias type (float) should be the same" after entering an image in the
CLI demo: the image processor produced fp16 pixel values for the half-precision language model,
while the vision encoder's patch convolution still had float32 weights. Stand-in: a patch
embedding + projection (no CogVLM code).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class VisionTower(nn.Module):
    def __init__(self, hidden=32, patch=8):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden, kernel_size=patch, stride=patch)
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, pixel_values):
        x = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        return self.proj(x)

vision = VisionTower().eval()
pixel_values = torch.rand(1, 3, 32, 32).to(torch.float16)
'''
CELL = '''
with torch.no_grad():
    image_features = vision(pixel_values)
'''
EXPECT_ERROR = "Input type (c10::Half) and bias type (float) should be the same"
CULPRITS = ["pixel_values"]
FIX = "namespace"
REFERENCE_FIX = '''
pixel_values = pixel_values.float()
'''
REFERENCE_EDIT = None
CLEAN = False
