"""Look-alike: TRELLIS.2's `TimestepEmbedder` builds its sinusoid frequencies from a CPU `arange` and moves them to the timesteps' device.

Source: https://github.com/microsoft/TRELLIS.2/blob/main/trellis2/models/sparse_structure_flow.py
`TimestepEmbedder.timestep_embedding` computes `freqs = torch.exp(-np.log(max_period) * torch.arange(start=0,
end=half, dtype=torch.float32) / half).to(device=t.device)` (no device at creation: CPU), then
`t[:, None].float() * freqs[None]`; the flow model runs on the GPU in float32 here. A tensor created without a
device inside forward that is moved before it meets the CUDA timesteps: nothing to report.
Stand-ins: `TimestepEmbedder` verbatim and `SparseStructureFlowModel` reduced to input layer, timestep
embedder, one adaLN-modulated MLP block and output layer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class TimestepEmbedder(nn.Module):
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

class SparseStructureFlowModel(nn.Module):
    """stand-in of trellis2.models.SparseStructureFlowModel, reduced"""
    def __init__(self, resolution=4, in_channels=8, model_channels=64, cond_channels=32):
        super().__init__()
        self.resolution, self.in_channels = resolution, in_channels
        self.t_embedder = TimestepEmbedder(model_channels)
        self.input_layer = nn.Linear(in_channels, model_channels)
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(model_channels, 2 * model_channels))
        self.cross = nn.Linear(cond_channels, model_channels)
        self.out_layer = nn.Linear(model_channels, in_channels)

    def forward(self, x, t, cond):
        h = x.view(*x.shape[:2], -1).permute(0, 2, 1).contiguous()
        h = self.input_layer(h)
        t_emb = self.t_embedder(t)
        shift, scale = self.adaLN_modulation(t_emb).chunk(2, dim=-1)
        h = F.layer_norm(h, h.shape[-1:]) * (1 + scale[:, None]) + shift[:, None] + self.cross(cond).mean(1, keepdim=True)
        h = self.out_layer(F.layer_norm(h, h.shape[-1:]))
        return h.permute(0, 2, 1).view(h.shape[0], h.shape[2], *[self.resolution] * 3).contiguous()

device = torch.device("cuda:0")
flow_model = SparseStructureFlowModel().eval().to(device)
x_t = torch.randn(2, 8, 4, 4, 4, device=device)
t = torch.tensor([1000.0, 500.0]).to(device)
cond = torch.randn(2, 5, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    pred_v = flow_model(x_t, t, cond)
print(pred_v.shape, pred_v.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
