"""torchtune KVCache built with a hard-coded `dtype=torch.float32` while the model generates in bfloat16: the cache write fails.

Source: https://github.com/meta-pytorch/torchtune/pull/423
"Fix kv cache for bf16 inference": "Our current kv cache is broken for bf16 inference" (issue #398).
The model is built under `set_default_dtype(torch.bfloat16)`, but `KVCache` allocated its
`k_cache`/`v_cache` buffers with `dtype=torch.float32`, so `k_out[:, :, input_pos] = k_val` (bf16 keys
into an fp32 cache) fails with "Index put requires the source and destination dtypes match". The
merged fix removes the dtype so the cache follows the default dtype set by the user. Stand-in:
KVCache, a one-layer CausalSelfAttention using it, and the recipe's `set_default_dtype` context.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import contextlib
import torch
from torch import nn
import torch.nn.functional as F

@contextlib.contextmanager
def set_default_dtype(dtype):
    old_dtype = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(old_dtype)

class KVCache(nn.Module):
    def __init__(self, max_batch_size, max_seq_len, n_kv_heads, head_dim, dtype=torch.float32):
        super().__init__()
        cache_shape = (max_batch_size, n_kv_heads, max_seq_len, head_dim)
        self.register_buffer("k_cache", torch.zeros(cache_shape, dtype=dtype), persistent=False)
        self.register_buffer("v_cache", torch.zeros(cache_shape, dtype=dtype), persistent=False)
        self.max_batch_size = max_batch_size

    def update(self, input_pos, k_val, v_val):
        k_out = self.k_cache
        v_out = self.v_cache
        k_out[:, :, input_pos] = k_val
        v_out[:, :, input_pos] = v_val
        return k_out, v_out

class CausalSelfAttention(nn.Module):
    def __init__(self, embed_dim=64, num_heads=4, max_seq_len=32, max_batch_size=1):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.output_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.kv_cache = KVCache(max_batch_size, max_seq_len, num_heads, self.head_dim)

    def forward(self, x, input_pos):
        bsz, seq_len, _ = x.shape
        q = self.q_proj(x).view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv_cache.update(input_pos, k, v)
        out = F.scaled_dot_product_attention(q, k[:, :, : int(input_pos[-1]) + 1], v[:, :, : int(input_pos[-1]) + 1])
        return self.output_proj(out.transpose(1, 2).reshape(bsz, seq_len, -1))

class TransformerDecoder(nn.Module):
    def __init__(self, vocab_size=100, embed_dim=64):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, embed_dim)
        self.attn = CausalSelfAttention(embed_dim)
        self.output = nn.Linear(embed_dim, vocab_size, bias=False)

    def forward(self, tokens, input_pos):
        h = self.tok_embeddings(tokens)
        h = h + self.attn(h, input_pos)
        return self.output(h)

with set_default_dtype(torch.bfloat16):
    model = TransformerDecoder().eval()
prompt = torch.tensor([[3, 17, 42, 8]])
'''
CELL = '''
with torch.no_grad():
    input_pos = torch.arange(prompt.shape[1])
    logits = model(prompt, input_pos=input_pos)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.attn.kv_cache"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("def __init__(self, max_batch_size, max_seq_len, n_kv_heads, head_dim, dtype=torch.float32):",
                  "def __init__(self, max_batch_size, max_seq_len, n_kv_heads, head_dim, dtype=None):")
CLEAN = False
