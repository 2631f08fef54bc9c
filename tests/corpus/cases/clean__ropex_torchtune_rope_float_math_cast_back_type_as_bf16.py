"""Look-alike: torchtune's RotaryPositionalEmbeddings rotates bf16 queries in float32 and returns `type_as(x)`.

Source: https://github.com/pytorch/torchtune/blob/main/torchtune/modules/position_embeddings.py
(`RotaryPositionalEmbeddings.rope_init`, `build_rope_cache`, `forward`).
The rotation upcasts: `xshaped = x.float().reshape(...)` is multiplied with the rope cache (a
non-persistent buffer that `model.to(torch.bfloat16)` turns into bf16), so the intermediate is
float32 inside a bf16 model, next to bf16 keys/values and a bf16 `F.scaled_dot_product_attention`
- the shape of the xformers/xpos "rotary returns float32" bugs. But `forward` ends with
`x_out.type_as(x)`, so q and k leave the module in the input's dtype. Stand-in: a one-layer
self-attention with torchtune's RoPE module (its [b, s, n_h, h_d] layout); CPU, dtype look-alike.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class RotaryPositionalEmbeddings(nn.Module):
    def __init__(self, dim, max_seq_len=4096, base=10_000):
        super().__init__()
        self.dim = dim
        self.base = base
        self.max_seq_len = max_seq_len
        self.rope_init()

    def rope_init(self):
        theta = 1.0 / (self.base ** (torch.arange(0, self.dim, 2)[: (self.dim // 2)].float() / self.dim))
        self.register_buffer("theta", theta, persistent=False)
        self.build_rope_cache(self.max_seq_len)

    def build_rope_cache(self, max_seq_len=4096):
        seq_idx = torch.arange(max_seq_len, dtype=self.theta.dtype, device=self.theta.device)
        idx_theta = torch.einsum("i, j -> ij", seq_idx, self.theta).float()
        cache = torch.stack([torch.cos(idx_theta), torch.sin(idx_theta)], dim=-1)
        self.register_buffer("cache", cache, persistent=False)

    def forward(self, x, *, input_pos=None):
        seq_len = x.size(1)
        rope_cache = self.cache[:seq_len] if input_pos is None else self.cache[input_pos]
        xshaped = x.float().reshape(*x.shape[:-1], -1, 2)
        rope_cache = rope_cache.view(-1, xshaped.size(1), 1, xshaped.size(3), 2)
        x_out = torch.stack(
            [
                xshaped[..., 0] * rope_cache[..., 0] - xshaped[..., 1] * rope_cache[..., 1],
                xshaped[..., 1] * rope_cache[..., 0] + xshaped[..., 0] * rope_cache[..., 1],
            ],
            -1,
        )
        x_out = x_out.flatten(3)
        return x_out.type_as(x)

class SelfAttention(nn.Module):
    def __init__(self, embed_dim=64, num_heads=4, max_seq_len=256):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.output_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.pos_embeddings = RotaryPositionalEmbeddings(self.head_dim, max_seq_len=max_seq_len)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.num_heads, self.head_dim)
        k = self.k_proj(x).view(b, s, self.num_heads, self.head_dim)
        v = self.v_proj(x).view(b, s, self.num_heads, self.head_dim)
        q = self.pos_embeddings(q)
        k = self.pos_embeddings(k)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.output_proj(out.transpose(1, 2).reshape(b, s, -1))

torch.manual_seed(0)
attn = SelfAttention().to(torch.bfloat16)
tokens_embedded = torch.randn(2, 32, 64, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    out = attn(tokens_embedded)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
