"""gReLU Enformer-style attention in bfloat16: the relative positional features are built in float32 inside `forward`.

Source: https://github.com/Genentech/gReLU/pull/26
"Add support for half precision (bf16 and fp16)": the PR "changed positional embedding device dtype
logic to support half precision". The attention layer computes `get_positional_embed(...)` with the
default dtype on every call and projects it with `to_rel_k`, whose weight is bfloat16 once the model is
converted, so the half-precision model fails on the positional projection. Stand-in: the exponential
positional features and an attention block with `to_q/to_k/to_v/to_rel_k`; bfloat16 on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

def get_positional_embed(seq_len, feature_size, device):
    distances = torch.arange(-seq_len + 1, seq_len, device=device)
    half_lives = 2 ** torch.linspace(3, math.log2(seq_len), feature_size // 2, device=device)
    emb = torch.exp(-math.log(2.0) / half_lives[None] * distances.abs()[:, None])
    return torch.cat([emb, torch.sign(distances)[:, None] * emb], dim=-1)

class Attention(nn.Module):
    def __init__(self, dim=32, heads=4, dim_key=8, num_rel_pos_features=8):
        super().__init__()
        self.heads, self.dim_key = heads, dim_key
        self.num_rel_pos_features = num_rel_pos_features
        self.to_q = nn.Linear(dim, dim_key * heads, bias=False)
        self.to_k = nn.Linear(dim, dim_key * heads, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.to_rel_k = nn.Linear(num_rel_pos_features, dim_key * heads, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.to_q(x), self.to_k(x), self.to_v(x)
        positions = get_positional_embed(n, self.num_rel_pos_features, x.device)
        rel_k = self.to_rel_k(positions)
        content = q @ k.transpose(-1, -2) / math.sqrt(self.dim_key * self.heads)
        rel = (q @ rel_k[n - 1:].transpose(-1, -2)) / math.sqrt(self.dim_key * self.heads)
        attn = (content + rel).softmax(-1)
        return self.to_out(attn @ v)

class EnformerTrunk(nn.Module):
    def __init__(self, dim=32, n_tasks=5):
        super().__init__()
        self.embed = nn.Linear(4, dim)
        self.attn = Attention(dim)
        self.head = nn.Linear(dim, n_tasks)
    def forward(self, x):
        h = self.embed(x)
        h = h + self.attn(h)
        return self.head(h)

model = EnformerTrunk().to(torch.bfloat16).eval()
x = torch.nn.functional.one_hot(torch.randint(0, 4, (2, 16)), 4).to(torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    preds = model(x)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["positions"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("positions = get_positional_embed(n, self.num_rel_pos_features, x.device)",
                  "positions = get_positional_embed(n, self.num_rel_pos_features, x.device).to(x.dtype)")
CLEAN = False
