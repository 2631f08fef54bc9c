"""Look-alike: rosinality StyleGAN2 generates with its stored per-layer noise, kept as buffers of `g_ema.noises`.

Source: https://github.com/rosinality/stylegan2-pytorch/pull/33
The PR converts the TF model's fixed noise inputs into the PyTorch generator, which registers them
with `self.noises.register_buffer(f"noise_{layer_idx}", torch.randn(*shape))`. Generating with
`randomize_noise=False` reads those tensors out of a plain Python list built in `forward`, and
`mean_latent` draws its samples on `self.input.input.device`; since the noises are buffers,
`g_ema.to(device)` moves them and generation with truncation runs on the GPU. The synthesis layers
are small stand-ins (no modulated convs / upfirdn).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ConstantInput(nn.Module):
    def __init__(self, channel, size=4):
        super().__init__()
        self.input = nn.Parameter(torch.randn(1, channel, size, size))
    def forward(self, input):
        batch = input.shape[0]
        return self.input.repeat(batch, 1, 1, 1)

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
    def __init__(self, in_channel, out_channel, style_dim, upsample=False):
        super().__init__()
        self.upsample = upsample
        self.modulation = nn.Linear(style_dim, in_channel)
        self.conv = nn.Conv2d(in_channel, out_channel, 3, padding=1)
        self.noise = NoiseInjection()
        self.activate = nn.LeakyReLU(0.2)
    def forward(self, input, style, noise=None):
        s = self.modulation(style).view(style.shape[0], -1, 1, 1)
        x = input * s
        if self.upsample:
            x = nn.functional.interpolate(x, scale_factor=2, mode="nearest")
        out = self.conv(x)
        out = self.noise(out, noise=noise)
        return self.activate(out)

class Generator(nn.Module):
    def __init__(self, size=8, style_dim=16, n_mlp=2, channel=8):
        super().__init__()
        self.style_dim = style_dim
        self.style = nn.Sequential(*[m for _ in range(n_mlp) for m in (nn.Linear(style_dim, style_dim), nn.LeakyReLU(0.2))])
        self.input = ConstantInput(channel)
        self.convs = nn.ModuleList([StyledConv(channel, channel, style_dim),
                                    StyledConv(channel, channel, style_dim, upsample=True)])
        self.to_rgb = nn.Conv2d(channel, 3, 1)
        self.num_layers = 2
        self.noises = nn.Module()
        for layer_idx in range(self.num_layers):
            res = 4 * 2 ** layer_idx
            shape = [1, 1, res, res]
            self.noises.register_buffer(f"noise_{layer_idx}", torch.randn(*shape))

    def mean_latent(self, n_latent):
        latent_in = torch.randn(n_latent, self.style_dim, device=self.input.input.device)
        latent = self.style(latent_in).mean(0, keepdim=True)
        return latent

    def forward(self, styles, truncation=1, truncation_latent=None, randomize_noise=True):
        styles = [self.style(s) for s in styles]
        noise = None
        if randomize_noise:
            noise = [None] * self.num_layers
        else:
            noise = [getattr(self.noises, f"noise_{i}") for i in range(self.num_layers)]
        if truncation < 1:
            styles = [truncation_latent + truncation * (style - truncation_latent) for style in styles]
        latent = styles[0]
        out = self.input(latent)
        for conv, n in zip(self.convs, noise):
            out = conv(out, latent, noise=n)
        return self.to_rgb(out), None

device = "cuda:0"
g_ema = Generator().to(device)
g_ema.eval()
args_latent = 16
mean_latent = g_ema.mean_latent(4096)
'''
CELL = '''
with torch.no_grad():
    sample_z = torch.randn(4, args_latent, device=device)
    sample, _ = g_ema([sample_z], truncation=0.7, truncation_latent=mean_latent, randomize_noise=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
