"""Look-alike: lucidrains stylegan2-pytorch keeps the truncation average `self.av` as a numpy array and moves it per call.

Source: https://github.com/lucidrains/stylegan2-pytorch/blob/master/stylegan2_pytorch/stylegan2_pytorch.py
`Trainer.truncate_style` caches the mean style as a CPU numpy array (`self.av`, computed once from
`S(z).cpu().numpy()`), and on every call converts it with `torch.from_numpy(self.av).cuda(self.rank)`
before `trunc_psi * (tensor - av_torch) + av_torch`: the CPU copy is deliberate (it is saved with the
run), and the arithmetic only ever sees the GPU copy. Stand-ins: the style network `S` is a small
Linear stack, `self.av` is the array a first call left behind, `.cuda(rank)` is written
`.to(f"cuda:{rank}")` for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def exists(val):
    return val is not None

def default(value, d):
    return value if exists(value) else d

def noise(n, latent_dim, device):
    return torch.randn(n, latent_dim).to(f"cuda:{device}")

class StyleVectorizer(nn.Module):
    def __init__(self, emb, depth):
        super().__init__()
        layers = []
        for i in range(depth):
            layers.extend([nn.Linear(emb, emb), nn.LeakyReLU(0.2)])
        self.net = nn.Sequential(*layers)
    def forward(self, x):
        x = nn.functional.normalize(x, dim=1)
        return self.net(x)

class GAN(nn.Module):
    def __init__(self, latent_dim=16, style_depth=2):
        super().__init__()
        self.S = StyleVectorizer(latent_dim, style_depth)
        self.latent_dim = latent_dim

class Trainer():
    def __init__(self, rank=0, batch_size=4):
        self.rank = rank
        self.batch_size = batch_size
        self.GAN = GAN().to(f"cuda:{rank}")
        self.av = None

    @torch.no_grad()
    def truncate_style(self, tensor, S=None, trunc_psi=0.75):
        S = default(S, self.GAN.S)
        latent_dim = self.GAN.latent_dim
        av_torch = torch.from_numpy(self.av).to(f"cuda:{self.rank}")
        tensor = trunc_psi * (tensor - av_torch) + av_torch
        return tensor

trainer = Trainer(rank=0)
# left by the first truncate_style call: np.mean(S(z).cpu().numpy(), axis=0)[None]
trainer.av = np.expand_dims(np.random.randn(16).astype(np.float32) * 0.1, axis=0)
'''
CELL = '''
z = noise(8, trainer.GAN.latent_dim, device=trainer.rank)
w = trainer.GAN.S(z)
w_truncated = trainer.truncate_style(w, trunc_psi=0.6)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
