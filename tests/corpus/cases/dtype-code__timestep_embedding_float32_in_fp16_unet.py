"""A float16 UNet gets a float32 timestep embedding built inside its own forward.

Source: https://github.com/huggingface/diffusers/issues/234
Stable Diffusion with torch_dtype=torch.float16 failed in the UNet: get_timestep_embedding makes
its frequencies with torch.arange(..., dtype=torch.float32) (and `timesteps.float()`), so the
embedding fed to the half-precision time-embedding Linear is float32 ("mat1 and mat2 must have the
same dtype"). The user's inputs are all right; the dtype is hard-coded in the model's code.
Stand-in: the embedding function and a time-embedding MLP.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn as nn

def get_timestep_embedding(timesteps, embedding_dim, max_period=10000):
    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(start=0, end=half_dim, dtype=torch.float32)
    emb = torch.exp(exponent / half_dim)
    emb = timesteps[:, None].float() * emb[None, :]
    return torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)

class TinyUNet(nn.Module):
    def __init__(self, ch=8, temb_dim=32):
        super().__init__()
        self.time_embedding = nn.Sequential(nn.Linear(32, temb_dim), nn.SiLU(), nn.Linear(temb_dim, ch))
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.conv_out = nn.Conv2d(ch, 4, 3, padding=1)

    def forward(self, sample, timesteps):
        t_emb = get_timestep_embedding(timesteps, 32)
        emb = self.time_embedding(t_emb)
        h = self.conv_in(sample) + emb[:, :, None, None]
        return self.conv_out(h)

unet = TinyUNet().to(torch.float16)
latents = torch.randn(1, 4, 8, 8, dtype=torch.float16)
t = torch.tensor([999])
'''
CELL = '''
with torch.no_grad():
    noise_pred = unet(latents, t)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["unet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "t_emb = get_timestep_embedding(timesteps, 32)",
    "t_emb = get_timestep_embedding(timesteps, 32).to(sample.dtype)",
)
CLEAN = False
