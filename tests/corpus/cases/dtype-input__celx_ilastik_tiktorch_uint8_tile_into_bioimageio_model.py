"""ilastik neural-network workflow: raw uint8 image tiles go to a bioimage.io PyTorch model whose weights are float32.

Source: https://github.com/ilastik/ilastik/pull/2563
"Ensure tensor float32 to tiktorch/bioimageio": bioimage.io model specs declare float32 inputs,
but ilastik forwarded the raw tile in the image's own dtype (8-bit microscopy data), so the
model's first convolution met an integer input. The PR casts the tensor to float32 before it is
sent. Stand-in: a tiny 2D U-Net (unet2d_nuclei_broad shape) behind a model adapter that just
calls the model, and a uint8 tile; CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class UNet2d(nn.Module):
    def __init__(self, in_channels=1, out_channels=1, f=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(in_channels, f, 3, padding=1), nn.ReLU())
        self.down = nn.MaxPool2d(2)
        self.mid = nn.Sequential(nn.Conv2d(f, f, 3, padding=1), nn.ReLU())
        self.up = nn.Upsample(scale_factor=2)
        self.out = nn.Conv2d(2 * f, out_channels, 1)

    def forward(self, x):
        e = self.enc(x)
        m = self.up(self.mid(self.down(e)))
        return torch.sigmoid(self.out(torch.cat([e, m], 1)))

class PytorchModelAdapter:
    def __init__(self, model):
        self.model = model.eval()

    def forward(self, *tensors):
        with torch.no_grad():
            return [self.model(t) for t in tensors]

raw = (np.random.default_rng(0).random((1, 1, 64, 64)) * 255).astype(np.uint8)   # 8-bit image data
adapter = PytorchModelAdapter(UNet2d())
tile = torch.from_numpy(raw)
'''
CELL = '''
prediction = adapter.forward(tile)[0]
'''
EXPECT_ERROR = "Input type (unsigned char) and bias type (float) should be the same"
CULPRITS = ["tile"]
FIX = "namespace"
REFERENCE_FIX = '''
tile = tile.float()
'''
REFERENCE_EDIT = None
CLEAN = False
