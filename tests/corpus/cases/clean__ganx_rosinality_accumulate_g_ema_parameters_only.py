"""Look-alike: rosinality StyleGAN2 `accumulate` updates `g_ema` in place, over named parameters only.

Source: https://github.com/rosinality/stylegan2-pytorch/blob/master/train.py
`accumulate(g_ema, g_module, accum)` runs `par1[k].data.mul_(decay).add_(par2[k].data, alpha=1 -
decay)` for every entry of `dict(model1.named_parameters())`: an in-place float update that never
touches the generator's buffers (the registered `noises`), so no non-float tensor reaches `mul_`, and
both generators were built and moved with `.to(device)`. `accumulate(g_ema, generator, 0)` copies the
weights at start. The generator is a small stand-in with the repository's `noises` buffers.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Generator(nn.Module):
    def __init__(self, size=8, style_dim=16, n_mlp=2):
        super().__init__()
        self.style = nn.Sequential(*[m for _ in range(n_mlp) for m in (nn.Linear(style_dim, style_dim), nn.LeakyReLU(0.2))])
        self.to_rgb = nn.Linear(style_dim, 3 * size * size)
        self.num_layers = 2
        self.noises = nn.Module()
        for layer_idx in range(self.num_layers):
            res = 4 * 2 ** layer_idx
            self.noises.register_buffer(f"noise_{layer_idx}", torch.randn(1, 1, res, res))
    def forward(self, styles):
        return self.to_rgb(self.style(styles[0]))

def accumulate(model1, model2, decay=0.999):
    par1 = dict(model1.named_parameters())
    par2 = dict(model2.named_parameters())

    for k in par1.keys():
        par1[k].data.mul_(decay).add_(par2[k].data, alpha=1 - decay)

device = "cuda:0"
generator = Generator().to(device)
g_ema = Generator().to(device)
g_ema.eval()
accumulate(g_ema, generator, 0)

g_module = generator            # generator.module under DistributedDataParallel
ema_kimg = 10
batch = 16
accum = 0.5 ** (32 / (ema_kimg * 1000))
'''
CELL = '''
with torch.no_grad():
    accumulate(g_ema, g_module, accum)
    sample = g_ema([torch.randn(4, 16, device=device)])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
