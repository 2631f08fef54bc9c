"""Chunkmogrify on CPU: the StyleCLIP mapper's `fused_leaky_relu` still moves its input to cuda.

Source: https://github.com/futscdav/Chunkmogrify/issues/6
The user ran Chunkmogrify on the CPU (device set in _config.yaml) and a StyleCLIP "Style Edit" failed
in `styleclip_mapper.py` `fused_leaky_relu` at `input + bias.view(...)` with "Expected all tensors
to be on the same device, ... cuda:0 and cpu!". The author: "There was a leftover cuda transfer in
the styleclip code" and removed the line `input = input.cuda()` (commit 09c1019). The mapper is the
repository's own code (EqualLinear / PixelNorm / Mapper), reduced to 16 channels; `input.cuda()` is
written `input.to("cuda:0")` because the CPU simulator refuses `.cuda()`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import argparse
import math
import torch
from torch import nn
from torch.nn import functional as F
from torch.nn import Module

def fused_leaky_relu(input, bias, negative_slope=0.2, scale=2 ** 0.5):
    rest_dim = [1] * (input.ndim - bias.ndim - 1)
    input = input.to("cuda:0")
    if input.ndim == 3:
        return (
            F.leaky_relu(
                input + bias.view(1, *rest_dim, bias.shape[0]), negative_slope=negative_slope
            )
            * scale
        )
    else:
        return (
            F.leaky_relu(
                input + bias.view(1, bias.shape[0], *rest_dim), negative_slope=negative_slope
            )
            * scale
        )

class PixelNorm(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, input):
        return input * torch.rsqrt(torch.mean(input ** 2, dim=1, keepdim=True) + 1e-8)

class EqualLinear(nn.Module):
    def __init__(self, in_dim, out_dim, bias=True, bias_init=0, lr_mul=1, activation=None):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_dim, in_dim).div_(lr_mul))
        if bias:
            self.bias = nn.Parameter(torch.zeros(out_dim).fill_(bias_init))
        else:
            self.bias = None
        self.activation = activation
        self.scale = (1 / math.sqrt(in_dim)) * lr_mul
        self.lr_mul = lr_mul
    def forward(self, input):
        if self.activation:
            out = F.linear(input, self.weight * self.scale)
            out = fused_leaky_relu(out, self.bias * self.lr_mul)
        else:
            out = F.linear(input, self.weight * self.scale, bias=self.bias * self.lr_mul)
        return out

class Mapper(Module):
    def __init__(self, opts, dim=16):
        super(Mapper, self).__init__()
        self.opts = opts
        layers = [PixelNorm()]
        for i in range(4):
            layers.append(EqualLinear(dim, dim, lr_mul=0.01, activation='fused_lrelu'))
        self.mapping = nn.Sequential(*layers)
    def forward(self, x):
        return self.mapping(x)

class LevelsMapper(Module):
    def __init__(self, opts):
        super(LevelsMapper, self).__init__()
        self.opts = opts
        self.course_mapping = Mapper(opts)
        self.medium_mapping = Mapper(opts)
        self.fine_mapping = Mapper(opts)
    def forward(self, x):
        x_coarse = self.course_mapping(x[:, :4, :])
        x_medium = self.medium_mapping(x[:, 4:8, :])
        x_fine = self.fine_mapping(x[:, 8:, :])
        return torch.cat([x_coarse, x_medium, x_fine], dim=1)

device = torch.device("cpu")      # _config.yaml: device: cpu
opts = argparse.Namespace(no_coarse_mapper=False, no_medium_mapper=False, no_fine_mapper=False)
mapper = LevelsMapper(opts).to(device).eval()
w = torch.randn(1, 18, 16, device=device)    # the projected W+ latent of the painted face
'''
CELL = '''
with torch.no_grad():
    delta = mapper(w)
    w_edit = w + 0.1 * delta
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["fused_leaky_relu"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('    input = input.to("cuda:0")\n', '')
CLEAN = False
