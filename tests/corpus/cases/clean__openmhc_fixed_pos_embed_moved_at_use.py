"""OpenMHC's LSM2 keeps fixed sin-cos position embeddings as plain tensors and moves them at each use.

Source: https://github.com/AshleyLab/OpenMHC/issues/10
"LSM2 positional embeddings are plain tensors instead of buffers": `pos_embed` and
`decoder_pos_embed` are plain attributes, so `model.to(device)` leaves them on the CPU, but "the
forward paths compensate by calling `.to(x.device, dtype=x.dtype)` at each use" - the issue is
about the per-batch copy cost, not a failure. Look-alike: CPU tensor attributes of a GPU model,
correct because every use moves them. Stand-in: a 1D ViT encoder/decoder pair.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def build_1d_sincos_pos_embed(n, dim):
    pos = torch.arange(n, dtype=torch.float32).unsqueeze(1)
    omega = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    emb = torch.zeros(n, dim)
    emb[:, 0::2] = torch.sin(pos * omega)
    emb[:, 1::2] = torch.cos(pos * omega)
    return emb.unsqueeze(0)

class LSM2ViT1D(nn.Module):
    def __init__(self, num_patches=24, patch_len=4, embed_dim=16, decoder_embed_dim=8):
        super().__init__()
        self.patch_embed = nn.Linear(patch_len, embed_dim)
        self.pos_embed = build_1d_sincos_pos_embed(num_patches, embed_dim)
        self.encoder = nn.TransformerEncoderLayer(embed_dim, 2, 32, batch_first=True)
        self.decoder_embed = nn.Linear(embed_dim, decoder_embed_dim)
        self.decoder_pos_embed = build_1d_sincos_pos_embed(num_patches, decoder_embed_dim)
        self.decoder_pred = nn.Linear(decoder_embed_dim, patch_len)

    def forward(self, x):
        x = self.patch_embed(x)
        x = x + self.pos_embed.to(x.device, dtype=x.dtype)
        x = self.encoder(x)
        x = self.decoder_embed(x)
        x = x + self.decoder_pos_embed.to(x.device, dtype=x.dtype)
        return self.decoder_pred(x)

device = torch.device("cuda:0")
model = LSM2ViT1D().to(device)
model.eval()
signals = torch.randn(2, 24, 4).to(device)
'''
CELL = '''
recon = model(signals)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
