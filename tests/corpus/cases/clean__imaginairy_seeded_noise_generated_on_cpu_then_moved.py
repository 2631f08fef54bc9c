"""Look-alike: imaginAIry draws every seeded noise tensor on the CPU generator, then moves it to the sampling device.

Source: https://github.com/brycedrennan/imaginAIry/pull/146
"fix: make sure randomness is generated on cpu for consistency" (fixes 145 and 133): the same seed
gave different images on CUDA and MPS, so noise is drawn with a CPU `torch.Generator` and only then
sent to the model's device (`randn_seeded(...).to(get_device())`); img2img noises the
device-resident init latent with it. CPU-made tensors next to device tensors, all moved before use;
the cell runs. The GPU is simulated by meta; the UNet and schedule are small stand-ins.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def get_device():
    return torch.device("meta")                  # "cuda" in the repo; meta simulates the GPU here

def randn_seeded(seed, size):
    generator = torch.Generator("cpu").manual_seed(seed)
    return torch.randn(size, device="cpu", generator=generator)

class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 4, 3, padding=1))
        self.t_emb = nn.Linear(1, 16)

    def forward(self, x, t):
        h = self.net[0](x) + self.t_emb(t.float()[:, None])[:, :, None, None]
        return self.net[2](self.net[1](h))

alphas_cumprod = torch.cumprod(1 - torch.linspace(1e-4, 0.02, 1000), 0).to(get_device())
model = TinyUNet().to(get_device())
init_latent = torch.randn(1, 4, 16, 16).to(get_device())          # VAE-encoded init image
seed, strength = 42, 0.6
'''
CELL = '''
t_enc = int(strength * 1000) - 1
t = torch.tensor([t_enc], device=get_device())
noise = randn_seeded(seed=seed, size=init_latent.shape).to(get_device())
a = alphas_cumprod[t_enc]
noised_latent = a.sqrt() * init_latent + (1 - a).sqrt() * noise
eps = model(noised_latent, t)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
