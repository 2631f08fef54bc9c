"""Look-alike: StyleGAN2-ADA `generate.py` feeds a float64 numpy seed latent; the mapping network casts it.

Source: https://github.com/NVlabs/stylegan2-ada-pytorch/blob/main/generate.py
`z = torch.from_numpy(np.random.RandomState(seed).randn(1, G.z_dim)).to(device)` is float64 (numpy's
default) and `label = torch.zeros([1, G.c_dim], device=device)` is empty for an unconditional net;
`MappingNetwork.forward` starts with `normalize_2nd_moment(z.to(torch.float32))`, so the float64
seed never meets a float32 weight, and truncation uses the `w_avg` buffer that `G.to(device)` moved.
Stand-ins: mapping/synthesis are small Linear stacks with the repository's forward structure.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def normalize_2nd_moment(x, dim=1, eps=1e-8):
    return x * (x.square().mean(dim=dim, keepdim=True) + eps).rsqrt()

class MappingNetwork(nn.Module):
    def __init__(self, z_dim=16, c_dim=0, w_dim=16, num_ws=4, num_layers=2, w_avg_beta=0.995):
        super().__init__()
        self.z_dim, self.c_dim, self.w_dim, self.num_ws = z_dim, c_dim, w_dim, num_ws
        self.num_layers = num_layers
        self.w_avg_beta = w_avg_beta
        for idx in range(num_layers):
            setattr(self, f'fc{idx}', nn.Sequential(nn.Linear(z_dim if idx == 0 else w_dim, w_dim), nn.LeakyReLU(0.2)))
        self.register_buffer('w_avg', torch.zeros([w_dim]))

    def forward(self, z, c, truncation_psi=1, truncation_cutoff=None, skip_w_avg_update=False):
        x = None
        if self.z_dim > 0:
            x = normalize_2nd_moment(z.to(torch.float32))
        for idx in range(self.num_layers):
            layer = getattr(self, f'fc{idx}')
            x = layer(x)
        if self.w_avg_beta is not None and self.training and not skip_w_avg_update:
            self.w_avg.copy_(x.detach().mean(dim=0).lerp(self.w_avg, self.w_avg_beta))
        if self.num_ws is not None:
            x = x.unsqueeze(1).repeat([1, self.num_ws, 1])
        if truncation_psi != 1:
            x = self.w_avg.lerp(x, truncation_psi)
        return x

class SynthesisNetwork(nn.Module):
    def __init__(self, w_dim=16, img_resolution=8, img_channels=3):
        super().__init__()
        self.img_resolution, self.img_channels = img_resolution, img_channels
        self.torgb = nn.Linear(w_dim, img_channels * img_resolution * img_resolution)
    def forward(self, ws, noise_mode='const'):
        return self.torgb(ws.mean(1)).view(-1, self.img_channels, self.img_resolution, self.img_resolution)

class Generator(nn.Module):
    def __init__(self, z_dim=16, c_dim=0, w_dim=16):
        super().__init__()
        self.z_dim, self.c_dim, self.w_dim = z_dim, c_dim, w_dim
        self.synthesis = SynthesisNetwork(w_dim=w_dim)
        self.num_ws = 4
        self.mapping = MappingNetwork(z_dim=z_dim, c_dim=c_dim, w_dim=w_dim, num_ws=self.num_ws)
    def forward(self, z, c, truncation_psi=1, truncation_cutoff=None, **synthesis_kwargs):
        ws = self.mapping(z, c, truncation_psi=truncation_psi, truncation_cutoff=truncation_cutoff)
        img = self.synthesis(ws, **synthesis_kwargs)
        return img

device = torch.device('cuda:0')
G = Generator().eval().requires_grad_(False).to(device)    # legacy.load_network_pkl(f)['G_ema'].to(device)
truncation_psi = 0.7
noise_mode = 'const'
seeds = [85, 265]
label = torch.zeros([1, G.c_dim], device=device)
'''
CELL = '''
imgs = []
for seed_idx, seed in enumerate(seeds):
    z = torch.from_numpy(np.random.RandomState(seed).randn(1, G.z_dim)).to(device)
    img = G(z, label, truncation_psi=truncation_psi, noise_mode=noise_mode)
    img = (img.permute(0, 2, 3, 1) * 127.5 + 128).clamp(0, 255).to(torch.uint8)
    imgs.append(img)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
