"""SVD fine-tuning (SVD_Xtend): `timesteps` rebuilt with `torch.Tensor([...])` land on the CPU, the UNet is on the GPU.

Source: https://github.com/pixeli99/SVD_Xtend/pull/5
Fine-tuning the UNet with `train_svd.py` failed with a device mismatch in the UNet's time embedding:
`timesteps = torch.Tensor([0.25 * sigma.log() for sigma in sigmas])` builds a new tensor on the CPU
even though `sigmas` live on the GPU. The PR sets the device of the timesteps to the accelerator's
("This way the timesteps and the model weights are on the same device"). Stand-in: a tiny
spatio-temporal UNet with diffusers' sinusoidal `time_proj` (made on `timesteps.device`) and the
`time_embedding` MLP; the GPU is simulated (the sigmas are drawn on the CPU first, since the
simulator cannot read values out of a GPU tensor, and `torch.Tensor([...])` is written as the
equivalent vector expression on those CPU sigmas).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import math
import torch
from torch import nn

def get_timestep_embedding(timesteps, embedding_dim, max_period=10000):
    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(0, half_dim, dtype=torch.float32, device=timesteps.device)
    emb = torch.exp(exponent / half_dim)
    emb = timesteps[:, None].float() * emb[None, :]
    return torch.cat([torch.cos(emb), torch.sin(emb)], dim=-1)

class UNetSpatioTemporalConditionModel(nn.Module):
    def __init__(self, ch=4, dim=32):
        super().__init__()
        self.dim = dim
        self.time_embedding = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.conv_in = nn.Conv3d(2 * ch, dim, 3, padding=1)
        self.conv_out = nn.Conv3d(dim, ch, 3, padding=1)

    def forward(self, sample, timesteps, encoder_hidden_states=None, added_time_ids=None):
        t_emb = get_timestep_embedding(timesteps, self.dim)
        emb = self.time_embedding(t_emb)
        h = self.conv_in(sample.permute(0, 2, 1, 3, 4))
        h = h + emb[:, :, None, None, None]
        return self.conv_out(h).permute(0, 2, 1, 3, 4)

def rand_log_normal(shape, loc=0., scale=1., device="cpu", dtype=torch.float32):
    u = torch.rand(shape, dtype=dtype, device=device) * (1 - 2e-7) + 1e-7
    return torch.distributions.Normal(loc, scale).icdf(u).exp()

class Accelerator:
    device = torch.device("cuda:0")

accelerator = Accelerator()
unet = UNetSpatioTemporalConditionModel().to(accelerator.device)
latents = torch.randn(1, 4, 4, 8, 8).to(accelerator.device)            # (b, frames, c, h, w)
conditional_latents = torch.randn(1, 4, 8, 8).to(accelerator.device)
noise = torch.randn_like(latents)
bsz = latents.shape[0]
sigmas = rand_log_normal(shape=[bsz, ], loc=0.7, scale=1.6)
timesteps = 0.25 * sigmas.log()        # torch.Tensor([0.25 * sigma.log() for sigma in sigmas]): CPU
sigmas = sigmas.to(latents.device)
sigmas_reshaped = sigmas[:, None, None, None, None]
noisy_latents = latents + noise * sigmas_reshaped
inp_noisy_latents = noisy_latents / ((sigmas_reshaped ** 2 + 1) ** 0.5)
conditional_latents = conditional_latents.unsqueeze(1).repeat(1, noisy_latents.shape[1], 1, 1, 1)
inp_noisy_latents = torch.cat([inp_noisy_latents, conditional_latents], dim=2)
'''
CELL = '''
model_pred = unet(inp_noisy_latents, timesteps)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["timesteps"]
FIX = "namespace"
REFERENCE_FIX = '''
timesteps = timesteps.to(accelerator.device)
'''
REFERENCE_EDIT = None
CLEAN = False
