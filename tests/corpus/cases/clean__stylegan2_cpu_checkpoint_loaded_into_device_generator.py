"""stylegan2-pytorch: a CPU-mapped checkpoint loaded into a generator that is already on the device.

Source: https://github.com/rosinality/stylegan2-pytorch/issues/158
"you load the model into GPU, while the state_dict is loaded into CPU? ... Is it ok?" - train.py builds
`generator = Generator(...).to(device)` and then does
`ckpt = torch.load(args.ckpt, map_location=lambda storage, loc: storage); generator.load_state_dict(ckpt["g"])`.
The maintainer: "Yes, it is not problematic" - `load_state_dict` copies the CPU tensors into the
existing device parameters. Look-alike: a CPU checkpoint dict in the namespace next to a device
model. Simulated with meta as the accelerator; the generator is a small stand-in.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Generator(nn.Module):
    def __init__(self, size=16, style_dim=32, n_mlp=2):
        super().__init__()
        layers = []
        for _ in range(n_mlp):
            layers += [nn.Linear(style_dim, style_dim), nn.LeakyReLU(0.2)]
        self.style = nn.Sequential(*layers)
        self.to_rgb = nn.Linear(style_dim, 3 * size * size)
        self.size = size

    def forward(self, styles):
        return self.to_rgb(self.style(styles)).view(-1, 3, self.size, self.size)

device = "meta"                       # "cuda" in train.py
generator = Generator().to(device)
g_ema = Generator().to(device)
ckpt = {"g": Generator().state_dict(), "g_ema": Generator().state_dict()}   # torch.load(..., map_location=lambda storage, loc: storage)
generator.load_state_dict(ckpt["g"])
g_ema.load_state_dict(ckpt["g_ema"])
sample_z = torch.randn(4, 32, device=device)
'''
CELL = '''
sample = g_ema(sample_z)
fake_img = generator(torch.randn(4, 32, device=device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
