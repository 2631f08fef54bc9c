"""torchgeo's CROMA keeps its 2D-ALiBi attention bias as a plain attribute, left on the CPU.

Source: https://github.com/torchgeo/torchgeo/pull/3232
"fix: CROMA attn_bias buffer registration": `attn_bias` was assigned as a plain tensor attribute,
so moving the model to the GPU did not move it and attention failed with a device mismatch; the
PR registers it as a buffer. Stand-ins: `get_2dalibi` and one attention layer of the encoder.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import itertools
import math
import torch
from torch import nn

def get_2dalibi(num_heads, num_patches):
    points = list(itertools.product(range(int(math.sqrt(num_patches))), range(int(math.sqrt(num_patches)))))
    slopes = torch.Tensor([2 ** (-8 * (h + 1) / num_heads) for h in range(num_heads)]).unsqueeze(1)
    idxs = []
    for p1 in points:
        for p2 in points:
            idxs.append(math.sqrt((p1[0] - p2[0]) ** 2 + (p1[1] - p2[1]) ** 2))
    all_bias = torch.Tensor(idxs).view(1, -1) * slopes * -1
    return all_bias.view(1, num_heads, num_patches, num_patches)

class Attention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads, self.scale = num_heads, (dim // num_heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, relative_position_bias):
        b, n, d = x.shape
        q, k, v = (t.view(b, n, self.num_heads, -1).transpose(1, 2) for t in self.to_qkv(x).chunk(3, dim=-1))
        attn = (q @ k.transpose(-2, -1)) * self.scale + relative_position_bias
        out = (attn.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, n, d)
        return self.to_out(out)

class CROMA(nn.Module):
    """torchgeo.models.CROMA (stand-in: optical encoder, one layer)."""

    def __init__(self, image_resolution=32, patch_size=8, encoder_dim=32, num_heads=4, in_chans=12):
        super().__init__()
        num_patches = (image_resolution // patch_size) ** 2
        self.patch_size = patch_size
        self.attn_bias = get_2dalibi(num_heads, num_patches)
        self.linear_input = nn.Linear(patch_size * patch_size * in_chans, encoder_dim)
        self.attention = Attention(encoder_dim, num_heads)

    def forward(self, x_optical):
        b, c, h, w = x_optical.shape
        p = self.patch_size
        x = x_optical.unfold(2, p, p).unfold(3, p, p).permute(0, 2, 3, 1, 4, 5).reshape(b, -1, c * p * p)
        x = self.linear_input(x)
        return self.attention(x, relative_position_bias=self.attn_bias)

device = torch.device("cuda:0")
model = CROMA().to(device)
x_optical = torch.randn(2, 12, 32, 32).to(device)
'''
CELL = '''
out = model(x_optical)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.attn_bias"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.attn_bias = get_2dalibi(num_heads, num_patches)",
                  "self.register_buffer('attn_bias', get_2dalibi(num_heads, num_patches), persistent=False)")
CLEAN = False
