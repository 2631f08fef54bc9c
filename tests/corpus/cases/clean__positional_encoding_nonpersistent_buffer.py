"""Look-alike: a 2-D positional encoding registered as a non-persistent buffer follows the model to the GPU.

Source: https://github.com/antoniorv6/SMT/pull/6
SMT's `PositionalEncoding2D` was changed so that its precomputed encoding is registered with
`register_buffer(..., persistent=False)` ("allowing torch to move them to the appropriate device
along with the whole model") instead of being built for a device by hand. After `model.to(device)`
the buffer is on the GPU next to the features, so the forward runs and nothing must be reported.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class PositionalEncoding2D(nn.Module):
    def __init__(self, dim, h_max, w_max):
        super().__init__()
        pe = torch.zeros((dim, h_max, w_max))
        div = torch.exp(-torch.arange(0., dim // 2, 2) / dim * math.log(10000.0)).unsqueeze(1)
        w_pos = torch.arange(0., w_max)
        h_pos = torch.arange(0., h_max)
        pe[:dim // 2:2, :, :] = torch.sin(h_pos * div).unsqueeze(2).repeat(1, 1, w_max)
        pe[1:dim // 2:2, :, :] = torch.cos(h_pos * div).unsqueeze(2).repeat(1, 1, w_max)
        pe[dim // 2::2, :, :] = torch.sin(w_pos * div).unsqueeze(1).repeat(1, h_max, 1)
        pe[dim // 2 + 1::2, :, :] = torch.cos(w_pos * div).unsqueeze(1).repeat(1, h_max, 1)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, x):
        return x + self.pe  # the image is h_max x w_max here (slicing left out)

class Encoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv2d(1, dim, 3, padding=1)
        self.pos_encoding = PositionalEncoding2D(dim, 32, 64)

    def forward(self, x):
        return self.pos_encoding(self.conv(x))

device = torch.device("cuda:0")
model = Encoder().to(device)
image = torch.randn(2, 1, 32, 64, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    features = model(image)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
