"""pytorch-generative PixelSNAIL: the image positional encoding is built with torch.zeros/arange on the CPU.

Source: https://github.com/EugenHotaj/pytorch-generative/issues/15
Training PixelSNAIL with `device=torch.device('cuda')` failed with "All input tensors must be on the
same device. Received cpu and cuda:0": `PixelSNAILBlock.forward` calls
`pg_nn.image_positional_encoding(input_img.shape)`, which makes its grid from `torch.zeros(n, c, h, w)`
and `torch.arange` without a device, then concatenates it with the cuda residual. The maintainer's
fix appended `.to(res.device)`. MaskedConv2d/MaskedAttention are small stand-ins.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

def image_positional_encoding(shape):
    n, c, h, w = shape
    zeros = torch.zeros(n, c, h, w)
    return torch.cat((
        (torch.arange(-.5, .5, 1 / h)[None, None, :, None] + zeros),
        (torch.arange(-.5, .5, 1 / w)[None, None, None, :] + zeros)),
        dim=1)

def _elu_conv_elu(conv, x):
    return F.elu(conv(F.elu(x)))

class MaskedAttention(nn.Module):
    def __init__(self, in_channels, embed_channels, out_channels, extra_input_channels=0):
        super().__init__()
        self._q = nn.Conv2d(in_channels, embed_channels, 1)
        self._kv = nn.Conv2d(in_channels + extra_input_channels, embed_channels + out_channels, 1)
        self._embed_channels = embed_channels

    def forward(self, x, extra_x):
        n, _, h, w = x.shape
        q = self._q(x).flatten(2)
        k, v = self._kv(torch.cat((x, extra_x), dim=1)).flatten(2).split(
            [self._embed_channels, self._kv.out_channels - self._embed_channels], dim=1)
        attn = torch.softmax(q.transpose(1, 2) @ k, dim=-1)
        return (v @ attn.transpose(1, 2)).view(n, -1, h, w)

class PixelSNAILBlock(nn.Module):
    def __init__(self, n_channels, attention_key_channels=4, attention_value_channels=8,
                 input_img_channels=1):
        super().__init__()
        conv = lambda in_channels: nn.Conv2d(in_channels, out_channels=n_channels, kernel_size=1)
        self._residual = nn.Sequential(nn.Conv2d(n_channels, n_channels, 3, padding=1), nn.ELU())
        self._attention = MaskedAttention(in_channels=n_channels + 2 * input_img_channels,
                                          embed_channels=attention_key_channels,
                                          out_channels=attention_value_channels,
                                          extra_input_channels=input_img_channels)
        self._residual_out = conv(n_channels)
        self._attention_out = conv(attention_value_channels)
        self._out = conv(n_channels)

    def forward(self, x, input_img):
        res = self._residual(x)
        pos = image_positional_encoding(input_img.shape)
        attn = self._attention(torch.cat((pos, res), dim=1), input_img)
        res, attn = (_elu_conv_elu(self._residual_out, res),
                     _elu_conv_elu(self._attention_out, attn))
        return _elu_conv_elu(self._out, res + attn)

class PixelSNAIL(nn.Module):
    def __init__(self, in_channels=1, n_channels=16, n_pixel_snail_blocks=2):
        super().__init__()
        self._input = nn.Conv2d(in_channels, n_channels, 3, padding=1)
        self._pixel_snail_blocks = nn.ModuleList(
            [PixelSNAILBlock(n_channels=n_channels) for _ in range(n_pixel_snail_blocks)])
        self._output = nn.Conv2d(n_channels, in_channels, 1)

    def forward(self, x):
        input_img = x
        x = self._input(x)
        skip = x
        for block in self._pixel_snail_blocks:
            x = block(skip, input_img)
            skip = skip + x
        return torch.sigmoid(self._output(skip))

device = torch.device("cuda:0")
model = PixelSNAIL().to(device)
x = (torch.rand(4, 1, 8, 8) > 0.5).float().to(device)
'''
CELL = '''
preds = model(x)
loss = F.binary_cross_entropy(preds, x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pos"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("pos = image_positional_encoding(input_img.shape)",
                  "pos = image_positional_encoding(input_img.shape).to(res.device)")
CLEAN = False
