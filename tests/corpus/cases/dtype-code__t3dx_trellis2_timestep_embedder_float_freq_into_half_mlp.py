"""TRELLIS.2 flow model converted to float16 for a pre-Ampere GPU: `TimestepEmbedder` feeds float32 sinusoidal frequencies to its float16 MLP.

Source: https://github.com/microsoft/TRELLIS.2/pull/135
"Fix dtype mismatches for GPUs without bfloat16 support": the pipeline assumes bfloat16, and when the
models are converted to float16 for older GPUs (RTX 20xx, GTX 16xx) "TimestepEmbedder hardcodes
`float()` for frequency embeddings, but MLP weights may be float16 -> `mat1 and mat2 must have the same
dtype`". The PR casts the timestep frequency embeddings to the MLP weight dtype before the forward
(`trellis2/models/sparse_structure_flow.py`).
Stand-in: `TimestepEmbedder` as in TRELLIS.2 (`timestep_embedding` builds `t[:, None].float() * freqs`);
`SparseStructureFlowModel` reduced to input layer, timestep embedder, two modulated MLP blocks standing in
for the transformer blocks, and the output layer, keeping the `manual_cast` calls of its forward. The user
converted the whole flow model with `.half()` and calls it with float16 latents and conditioning (SIM
"cpu": dtype only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def manual_cast(tensor, dtype):
    if not torch.is_autocast_enabled():
        return tensor.type(dtype)
    return tensor

class TimestepEmbedder(nn.Module):
    """stand-in of trellis2.models.sparse_structure_flow.TimestepEmbedder"""
    def __init__(self, hidden_size, frequency_embedding_size=256):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(frequency_embedding_size, hidden_size, bias=True),
            nn.SiLU(),
            nn.Linear(hidden_size, hidden_size, bias=True),
        )
        self.frequency_embedding_size = frequency_embedding_size

    @staticmethod
    def timestep_embedding(t, dim, max_period=10000):
        half = dim // 2
        freqs = torch.exp(
            -np.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half
        ).to(device=t.device)
        args = t[:, None].float() * freqs[None]
        embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        if dim % 2:
            embedding = torch.cat([embedding, torch.zeros_like(embedding[:, :1])], dim=-1)
        return embedding

    def forward(self, t):
        t_freq = self.timestep_embedding(t, self.frequency_embedding_size)
        t_emb = self.mlp(t_freq)
        return t_emb

class ModulatedBlock(nn.Module):
    """stands in for ModulatedTransformerCrossBlock (adaLN-modulated MLP, cross term on cond)"""
    def __init__(self, channels, cond_channels):
        super().__init__()
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(channels, 2 * channels))
        self.cross = nn.Linear(cond_channels, channels)
        self.mlp = nn.Sequential(nn.Linear(channels, 2 * channels), nn.GELU(), nn.Linear(2 * channels, channels))

    def forward(self, h, t_emb, cond):
        shift, scale = self.adaLN_modulation(t_emb).chunk(2, dim=-1)
        h = F.layer_norm(h, h.shape[-1:]) * (1 + scale[:, None]) + shift[:, None]
        h = h + self.cross(cond).mean(1, keepdim=True)
        return h + self.mlp(h)

class SparseStructureFlowModel(nn.Module):
    """stand-in of trellis2.models.sparse_structure_flow.SparseStructureFlowModel, reduced"""
    def __init__(self, resolution=4, in_channels=8, model_channels=64, cond_channels=32, out_channels=8, num_blocks=2):
        super().__init__()
        self.resolution = resolution
        self.in_channels = in_channels
        self.dtype = torch.float32
        self.t_embedder = TimestepEmbedder(model_channels)
        self.input_layer = nn.Linear(in_channels, model_channels)
        self.blocks = nn.ModuleList([ModulatedBlock(model_channels, cond_channels) for _ in range(num_blocks)])
        self.out_layer = nn.Linear(model_channels, out_channels)

    def forward(self, x, t, cond):
        h = x.view(*x.shape[:2], -1).permute(0, 2, 1).contiguous()
        h = self.input_layer(h)
        t_emb = self.t_embedder(t)
        t_emb = manual_cast(t_emb, self.dtype)
        h = manual_cast(h, self.dtype)
        cond = manual_cast(cond, self.dtype)
        for block in self.blocks:
            h = block(h, t_emb, cond)
        h = manual_cast(h, x.dtype)
        h = F.layer_norm(h, h.shape[-1:])
        h = self.out_layer(h)
        return h.permute(0, 2, 1).view(h.shape[0], h.shape[2], *[self.resolution] * 3).contiguous()

torch.manual_seed(0)
flow_model = SparseStructureFlowModel().eval()
flow_model.half()                      # GTX 16xx / RTX 20xx: no bfloat16, whole model to float16
flow_model.dtype = torch.float16

reso = flow_model.resolution
x_t = torch.randn(1, flow_model.in_channels, reso, reso, reso, dtype=torch.float16)
cond = torch.randn(1, 5, 32, dtype=torch.float16)     # DINOv3 image features
t = torch.tensor([1000.0])
'''
CELL = '''
with torch.no_grad():
    pred_v = flow_model(x_t, t, cond)
print(pred_v.shape, pred_v.dtype)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype", "expected scalar type")
CULPRITS = ["flow_model.t_embedder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        t_emb = self.mlp(t_freq)\n",
                  "        t_emb = self.mlp(t_freq.to(self.mlp[0].weight.dtype))\n")
CLEAN = False
