"""Look-alike: GPT-NeoX rotary embedding rebuilds its cos/sin cache in float32 and returns it in the input's dtype.

Source: https://github.com/huggingface/transformers/pull/24262
"Fixing RotaryEmbedding.forward to return float16 values in float16 precision mode": the cache is
(re)built in float32 when a longer sequence arrives, and `forward` returns
`self.cos_cached[:seq_len].to(dtype=x.dtype)`, so a half model gets half cos/sin back. Mixed dtypes
by design: fp32 tables inside an fp16 model, cast at the point of use. Stand-in: GPTNeoXRotaryEmbedding
and one attention step applying it; CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class GPTNeoXRotaryEmbedding(nn.Module):
    def __init__(self, dim, max_position_embeddings=8, base=10000, device=None):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float().to(device) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self._set_cos_sin_cache(max_position_embeddings, self.inv_freq.device)

    def _set_cos_sin_cache(self, seq_len, device):
        self.max_seq_len_cached = seq_len
        t = torch.arange(self.max_seq_len_cached, device=device, dtype=torch.float32)
        freqs = torch.einsum("i,j->ij", t, self.inv_freq.float())
        emb = torch.cat((freqs, freqs), dim=-1)
        self.cos_cached = emb.cos()[None, None, :, :]
        self.sin_cached = emb.sin()[None, None, :, :]

    def forward(self, x, seq_len=None):
        if seq_len > self.max_seq_len_cached:
            self._set_cos_sin_cache(seq_len, x.device)
        return (self.cos_cached[:, :, :seq_len, ...].to(dtype=x.dtype),
                self.sin_cached[:, :, :seq_len, ...].to(dtype=x.dtype))

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

class GPTNeoXAttention(nn.Module):
    def __init__(self, hidden=64, heads=4):
        super().__init__()
        self.heads, self.head_size = heads, hidden // heads
        self.query_key_value = nn.Linear(hidden, 3 * hidden)
        self.dense = nn.Linear(hidden, hidden)
        self.rotary_emb = GPTNeoXRotaryEmbedding(self.head_size)

    def forward(self, hidden_states):
        b, s, _ = hidden_states.shape
        qkv = self.query_key_value(hidden_states).view(b, s, self.heads, 3 * self.head_size).permute(0, 2, 1, 3)
        q, k, v = qkv.chunk(3, dim=-1)
        cos, sin = self.rotary_emb(v, seq_len=s)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        attn = (q @ k.transpose(-1, -2) / math.sqrt(self.head_size)).softmax(-1)
        return self.dense((attn @ v).transpose(1, 2).reshape(b, s, -1))

attention = GPTNeoXAttention().half()
hidden_states = torch.randn(2, 20, 64, dtype=torch.half)   # longer than the cached 8 positions
'''
CELL = '''
with torch.no_grad():
    out = attention(hidden_states)
print(out.dtype, attention.rotary_emb.cos_cached.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
