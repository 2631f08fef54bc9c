"""xFormers' RotaryEmbedding builds its cos/sin table in float32, so a half model's q and k come back float32.

Source: https://github.com/facebookresearch/xformers/issues/325
"Rotary embeddings convert queries and keys to float32": "the cos_sin table in the RotaryEmbedding
class is stored in float32 format, thus the returned queries and keys get converted to float32".
The maintainer: it was hard-coded to float (`torch.arange(..., dtype=torch.float32)`), "it's also
something which would fail in bf16", fixed by building the table in the input's dtype. Here the
model is cast with `.half()` (no autocast): the rotated q/k are float32 while v stays half, and the
attention's `att @ v` fails. Stand-in: xformers' RotaryEmbedding and a scaled-dot-product attention
block; CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)

def apply_rotary_pos_emb(x, cos, sin):
    cos = cos[:, :, : x.shape[-2], :]
    sin = sin[:, :, : x.shape[-2], :]
    return (x * cos) + (rotate_half(x) * sin)

class RotaryEmbedding(nn.Module):
    def __init__(self, dim_model):
        super().__init__()
        inv_freq = 1.0 / (10000 ** (torch.arange(0, dim_model, 2).float() / dim_model))
        self.register_buffer("inv_freq", inv_freq)
        self._seq_len_cached = None
        self._cos_cached = None
        self._sin_cached = None

    def _update_cos_sin_tables(self, x, seq_dimension=-2):
        seq_len = x.shape[seq_dimension]
        if seq_len != self._seq_len_cached or self._cos_cached.device != x.device:
            self._seq_len_cached = seq_len
            t = torch.arange(x.shape[seq_dimension], device=x.device, dtype=torch.float32)
            freqs = torch.einsum("i,j->ij", t, self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1).to(x.device)
            self._cos_cached = emb.cos()[None, None, :, :]
            self._sin_cached = emb.sin()[None, None, :, :]
        return self._cos_cached, self._sin_cached

    def forward(self, q, k):
        self._cos_cached, self._sin_cached = self._update_cos_sin_tables(k, seq_dimension=-2)
        return (apply_rotary_pos_emb(q, self._cos_cached, self._sin_cached),
                apply_rotary_pos_emb(k, self._cos_cached, self._sin_cached))

class RotaryAttentionBlock(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads, self.dim_head = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.rotary = RotaryEmbedding(self.dim_head)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = (t.view(b, n, self.heads, self.dim_head).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        q, k = self.rotary(q, k)
        att = (q @ k.transpose(-2, -1) / math.sqrt(self.dim_head)).softmax(dim=-1)
        y = att @ v
        return self.proj(y.transpose(1, 2).reshape(b, n, d))

model = RotaryAttentionBlock().half()
x = torch.randn(2, 16, 64).half()
'''
CELL = '''
with torch.no_grad():
    y = model(x)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("t = torch.arange(x.shape[seq_dimension], device=x.device, dtype=torch.float32)",
                  "t = torch.arange(x.shape[seq_dimension], device=x.device, dtype=x.dtype)")
CLEAN = False
