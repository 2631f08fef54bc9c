"""Look-alike: a bf16 Wan DiT whose timestep and sinusoidal embedding stay float32 until the time MLP.

Source: https://github.com/modelscope/DiffSynth-Studio/pull/1025
Training the Wan DiT in bf16, `sinusoidal_embedding_1d()` returned the dtype of its `timestep` input,
which forced the timestep itself to bf16 (998.39 -> 1000.0). The PR keeps `timestep` (and the sinusoid)
in float32 and casts the embedding to `x.dtype` only right before `self.time_embedding`, so a float32
tensor deliberately lives next to a bf16 model. Runs; no finding expected. Stand-in: the sinusoidal
embedding, the time MLP and a patch embedding of the DiT; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def sinusoidal_embedding_1d(dim, position):
    sinusoid = torch.outer(position.type(torch.float64), torch.pow(
        10000, -torch.arange(dim // 2, dtype=torch.float64, device=position.device).div(dim // 2)))
    x = torch.cat([torch.cos(sinusoid), torch.sin(sinusoid)], dim=1)
    return x.to(torch.float32)

class WanModel(nn.Module):
    def __init__(self, dim=32, freq_dim=16, in_dim=4):
        super().__init__()
        self.freq_dim = freq_dim
        self.patch_embedding = nn.Conv3d(in_dim, dim, kernel_size=(1, 2, 2), stride=(1, 2, 2))
        self.time_embedding = nn.Sequential(nn.Linear(freq_dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, in_dim * 4)

    def forward(self, x, timestep):
        t = self.time_embedding(sinusoidal_embedding_1d(self.freq_dim, timestep).to(x.dtype))
        x = self.patch_embedding(x).flatten(2).transpose(1, 2)
        return self.head(x + t[:, None, :])

dit = WanModel().to(dtype=torch.bfloat16)
latents = torch.randn(1, 4, 2, 8, 8, dtype=torch.bfloat16)
timestep = torch.tensor([998.3897])            # scheduler.timesteps[timestep_id], kept float32
'''
CELL = '''
noise_pred = dit(latents, timestep=timestep)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
