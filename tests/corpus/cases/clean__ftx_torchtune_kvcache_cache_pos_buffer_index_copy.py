"""torchtune `KVCache`: k/v caches and an int64 `cache_pos` kept as buffers, updated in place with `index_copy_` during generation.

Source: https://github.com/meta-pytorch/torchtune/pull/1663
"Fixing recompiles in KV-cache + compile": the cache registers `k_cache`, `v_cache` and
`cache_pos = torch.arange(0, cache_max_seq_len)` as non-persistent buffers, writes new keys with
`k_out.index_copy_(2, self.cache_pos[:seq_len], k_val)` and advances `self.cache_pos += seq_len`.
An int64 index tensor made on the CPU at setup, in-place writes into caches of the model's dtype,
all on the device the decoder was moved to: a look-alike that runs (prefill then one decode step).
Stand-in: one attention layer with its cache; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class KVCache(nn.Module):
    def __init__(self, batch_size, max_seq_len, num_kv_heads, head_dim, dtype):
        super().__init__()
        cache_shape = (batch_size, num_kv_heads, max_seq_len, head_dim)
        self.register_buffer("k_cache", torch.zeros(cache_shape, dtype=dtype), persistent=False)
        self.register_buffer("v_cache", torch.zeros(cache_shape, dtype=dtype), persistent=False)
        self.register_buffer("cache_pos", torch.arange(0, cache_shape[2]), persistent=False)

    def update(self, k_val, v_val):
        seq_len = k_val.shape[2]
        k_out, v_out = self.k_cache, self.v_cache
        k_out.index_copy_(2, self.cache_pos[:seq_len], k_val)
        v_out.index_copy_(2, self.cache_pos[:seq_len], v_val)
        self.cache_pos += seq_len
        return k_out, v_out

class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim=32, num_heads=4):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.output_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.kv_cache = None

    def setup_cache(self, batch_size, dtype, max_seq_len):
        self.kv_cache = KVCache(batch_size, max_seq_len, self.num_heads, self.head_dim, dtype)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.num_heads, -1).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.num_heads, -1).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.num_heads, -1).transpose(1, 2)
        k, v = self.kv_cache.update(k, v)
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        return self.output_proj(out.transpose(1, 2).reshape(b, s, -1))

device = torch.device("meta")          # the GPU, simulated with meta
attn = MultiHeadAttention()
attn.setup_cache(batch_size=2, dtype=torch.float32, max_seq_len=16)
attn.to(device)
prompt = torch.randn(2, 5, 32).to(device)
next_token_emb = torch.randn(2, 1, 32).to(device)
'''
CELL = '''
with torch.no_grad():
    out = attn(prompt)              # prefill
    out = attn(next_token_emb)      # one decode step
print(out.shape, attn.kv_cache.cache_pos.device, attn.kv_cache.cache_pos.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
