"""torchebm's MLPTimestepEmbedder builds its sinusoidal table in float32, so a `.double()` DiT fails in the embedder's first Linear.

Source: https://github.com/soran-ghaderi/torchebm/issues/302
"MLPTimestepEmbedder: sinusoidal table ignores the module dtype": `sinusoidal_embedding` builds a
float32 table whatever the module dtype (`torch.arange(..., dtype=torch.float32)`,
`t[:, None].float()`), "so a .double() DiT fails in its first Linear (Float vs Double)". The fix
(PR #306, "respect timestep embedder dtype") casts the sinusoidal table to the MLP weight dtype
before the first linear layer. Stand-in: torchebm's `MLPTimestepEmbedder` (from
`torchebm/models/components/embeddings.py`) inside a minimal DiT-shaped model (patch projection,
timestep conditioning, one block, head); CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn as nn

class MLPTimestepEmbedder(nn.Module):
    """Embed a scalar timestep into a vector via sinusoid + MLP."""

    def __init__(self, out_dim, frequency_embedding_size=256):
        super().__init__()
        self.frequency_embedding_size = int(frequency_embedding_size)
        self.mlp = nn.Sequential(
            nn.Linear(self.frequency_embedding_size, out_dim, bias=True),
            nn.SiLU(),
            nn.Linear(out_dim, out_dim, bias=True),
        )

    @staticmethod
    def sinusoidal_embedding(t, dim, max_period=10000):
        half = dim // 2
        freqs = torch.exp(
            -math.log(max_period)
            * torch.arange(start=0, end=half, device=t.device, dtype=torch.float32)
            / half
        )
        args = t[:, None].float() * freqs[None]
        emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        if dim % 2:
            emb = torch.cat([emb, torch.zeros_like(emb[:, :1])], dim=-1)
        return emb

    def forward(self, t):
        if t.ndim != 1:
            t = t.reshape(t.shape[0])
        freq = self.sinusoidal_embedding(t, self.frequency_embedding_size)
        return self.mlp(freq)

class TinyDiT(nn.Module):
    def __init__(self, in_dim=16, hidden=64, heads=4):
        super().__init__()
        self.x_embedder = nn.Linear(in_dim, hidden)
        self.t_embedder = MLPTimestepEmbedder(hidden)
        self.block = nn.TransformerEncoderLayer(hidden, heads, 2 * hidden, batch_first=True)
        self.adaLN = nn.Linear(hidden, 2 * hidden)
        self.head = nn.Linear(hidden, in_dim)

    def forward(self, x, t):
        h = self.x_embedder(x)
        c = self.t_embedder(t)
        shift, scale = self.adaLN(nn.functional.silu(c)).chunk(2, dim=-1)
        h = h * (1 + scale[:, None]) + shift[:, None]
        return self.head(self.block(h))

torch.manual_seed(0)
model = TinyDiT().double()
x = torch.randn(4, 10, 16, dtype=torch.float64)
t = torch.rand(4, dtype=torch.float64)
'''
CELL = '''
with torch.no_grad():
    velocity = model(x, t)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "same dtype")
CULPRITS = ["model.t_embedder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return self.mlp(freq)",
                  "        return self.mlp(freq.to(self.mlp[0].weight.dtype))")
CLEAN = False
