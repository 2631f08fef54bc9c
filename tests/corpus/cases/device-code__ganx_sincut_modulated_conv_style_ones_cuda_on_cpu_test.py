"""SinCUT test with `--gpu_ids -1`: the StyleGAN2 decoder's ModulatedConv2d builds its default style with `.cuda()`.

Source: https://github.com/taesungp/contrastive-unpaired-translation/issues/78
A SinCUT model trained on the GPU was tested on the CPU (`test.py ... --gpu_ids -1`) and failed with
"expected device cpu but got device cuda:0" (today: "Expected all tensors to be on the same
device"). A commenter traced it to `stylegan_networks.py`: when no style vector is given (the
StyleGAN2 decoder's `StyledConv` layers have `style_dim=None`), `ModulatedConv2d.forward` does
`style = torch.ones(batch, 1, in_channel, 1, 1).cuda()`, which then multiplies the CPU weight; they
removed the cuda calls, and the maintainer agreed it needs fixing. Stand-ins: the repository's
ModulatedConv2d / StyledConv / NoiseInjection / FusedLeakyReLU (native path) are kept on the
non-upsampling branch, the encoder is one conv; `.cuda()` is written `.to("cuda:0")` for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import argparse
import torch
from torch import nn
from torch.nn import functional as F

def fused_leaky_relu(input, bias, negative_slope=0.2, scale=2 ** 0.5):
    return scale * F.leaky_relu(input + bias.view((1, -1) + (1,) * (input.ndim - 2)), negative_slope=negative_slope)

class FusedLeakyReLU(nn.Module):
    def __init__(self, channel, negative_slope=0.2, scale=2 ** 0.5):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(channel))
        self.negative_slope = negative_slope
        self.scale = scale
    def forward(self, input):
        return fused_leaky_relu(input, self.bias, self.negative_slope, self.scale)

class EqualLinear(nn.Module):
    def __init__(self, in_dim, out_dim, bias=True, bias_init=0, lr_mul=1):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_dim, in_dim).div_(lr_mul))
        self.bias = nn.Parameter(torch.zeros(out_dim).fill_(bias_init))
        self.scale = (1 / math.sqrt(in_dim)) * lr_mul
        self.lr_mul = lr_mul
    def forward(self, input):
        return F.linear(input, self.weight * self.scale, bias=self.bias * self.lr_mul)

class ModulatedConv2d(nn.Module):
    def __init__(self, in_channel, out_channel, kernel_size, style_dim, demodulate=True):
        super().__init__()
        self.eps = 1e-8
        self.kernel_size = kernel_size
        self.in_channel = in_channel
        self.out_channel = out_channel
        fan_in = in_channel * kernel_size ** 2
        self.scale = math.sqrt(1) / math.sqrt(fan_in)
        self.padding = kernel_size // 2
        self.weight = nn.Parameter(torch.randn(1, out_channel, in_channel, kernel_size, kernel_size))
        if style_dim is not None and style_dim > 0:
            self.modulation = EqualLinear(style_dim, in_channel, bias_init=1)
        self.demodulate = demodulate

    def forward(self, input, style):
        batch, in_channel, height, width = input.shape

        if style is not None:
            style = self.modulation(style).view(batch, 1, in_channel, 1, 1)
        else:
            style = torch.ones(batch, 1, in_channel, 1, 1).to("cuda:0")
        weight = self.scale * self.weight * style

        if self.demodulate:
            demod = torch.rsqrt(weight.pow(2).sum([2, 3, 4]) + 1e-8)
            weight = weight * demod.view(batch, self.out_channel, 1, 1, 1)

        weight = weight.view(batch * self.out_channel, in_channel, self.kernel_size, self.kernel_size)
        input = input.view(1, batch * in_channel, height, width)
        out = F.conv2d(input, weight, padding=self.padding, groups=batch)
        _, _, height, width = out.shape
        out = out.view(batch, self.out_channel, height, width)
        return out

class NoiseInjection(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(1))
    def forward(self, image, noise=None):
        if noise is None:
            batch, _, height, width = image.shape
            noise = image.new_empty(batch, 1, height, width).normal_()
        return image + self.weight * noise

class StyledConv(nn.Module):
    def __init__(self, in_channel, out_channel, kernel_size, style_dim=None, demodulate=True, inject_noise=True):
        super().__init__()
        self.inject_noise = inject_noise
        self.conv = ModulatedConv2d(in_channel, out_channel, kernel_size, style_dim, demodulate=demodulate)
        self.noise = NoiseInjection()
        self.activate = FusedLeakyReLU(out_channel)
    def forward(self, input, style=None, noise=None):
        out = self.conv(input, style)
        if self.inject_noise:
            out = self.noise(out, noise=noise)
        out = self.activate(out)
        return out

class StyleGAN2Decoder(nn.Module):
    def __init__(self, ngf=8):
        super().__init__()
        self.convs = nn.Sequential(StyledConv(ngf, ngf, 3), StyledConv(ngf, ngf, 3), nn.Conv2d(ngf, 3, 1))
    def forward(self, input):
        return self.convs(input)

class StyleGAN2Generator(nn.Module):
    def __init__(self, ngf=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, ngf, 3, 2, 1), nn.LeakyReLU(0.2))   # StyleGAN2Encoder stand-in
        self.decoder = StyleGAN2Decoder(ngf)
    def forward(self, input, layers=[], encode_only=False):
        feat = self.encoder(input)
        return self.decoder(feat)

class SinCUTModel():
    def __init__(self, opt):
        self.opt = opt
        self.gpu_ids = opt.gpu_ids
        self.device = torch.device('cuda:{}'.format(self.gpu_ids[0])) if self.gpu_ids else torch.device('cpu')
        self.netG = StyleGAN2Generator().to(self.device)
    def set_input(self, input):
        self.real_A = input['A'].to(self.device)
        self.real_B = input['B'].to(self.device)
    def forward(self):
        self.fake_B = self.netG(self.real_A)
    def test(self):
        with torch.no_grad():
            self.forward()

opt = argparse.Namespace(name='single_image_monet_etretat', model='sincut', netG='stylegan2', gpu_ids=[])  # --gpu_ids -1
model = SinCUTModel(opt)
model.netG.eval()
data = {'A': torch.rand(1, 3, 16, 16) * 2 - 1, 'B': torch.rand(1, 3, 16, 16) * 2 - 1}
'''
CELL = '''
model.set_input(data)
model.test()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.netG"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('style = torch.ones(batch, 1, in_channel, 1, 1).to("cuda:0")',
                  'style = torch.ones(batch, 1, in_channel, 1, 1)')
CLEAN = False
