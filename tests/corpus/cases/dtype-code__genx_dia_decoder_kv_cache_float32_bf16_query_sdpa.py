"""Dia TTS decode step on CPU in bfloat16: the self-attention KV cache holds float32 keys/values while the query is bfloat16.

Source: https://github.com/nari-labs/dia/pull/45
"Error during inference: Expected query, key, and value to have the same dtype, but got query.dtype:
c10::BFloat16 key.dtype: float and value.dtype: float instead." The decoder's `Attention.forward`
concatenates the new key/value projections onto a KV cache allocated in float32 and calls
`F.scaled_dot_product_attention` with the bfloat16 query. The merged PR casts `attn_k` and
`attn_v` to the query's dtype before the attention. Stand-in: one decoder attention layer with
Dia's KVCache and a `decode_step` loop; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class KVCache:
    def __init__(self, num_heads, max_len, head_dim, device="cpu"):
        self.k = torch.zeros((2, num_heads, max_len, head_dim), device=device)
        self.v = torch.zeros((2, num_heads, max_len, head_dim), device=device)
        self.current_idx = 0

    def update(self, k, v):
        n = k.shape[2]
        self.k = torch.cat([self.k[:, :, :self.current_idx], k.to(self.k.dtype), self.k[:, :, self.current_idx + n:]], dim=2)
        self.v = torch.cat([self.v[:, :, :self.current_idx], v.to(self.v.dtype), self.v[:, :, self.current_idx + n:]], dim=2)
        self.current_idx += n
        return self.k[:, :, :self.current_idx], self.v[:, :, :self.current_idx]

class Attention(nn.Module):
    def __init__(self, embed_dim=32, num_heads=4, compute_dtype=torch.bfloat16):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.o_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.compute_dtype = compute_dtype

    def forward(self, Xq, cache):
        B, T, _ = Xq.shape
        def heads(t):
            return t.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        Xq_BxNxTxH = heads(self.q_proj(Xq))
        attn_k, attn_v = cache.update(heads(self.k_proj(Xq)), heads(self.v_proj(Xq)))
        attn_output = F.scaled_dot_product_attention(Xq_BxNxTxH, attn_k, attn_v, scale=1.0)
        return self.o_proj(attn_output.transpose(1, 2).reshape(B, T, -1).to(self.compute_dtype))

class Decoder(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d)
        self.self_attention = Attention(d)
        self.logits_dense = nn.Linear(d, vocab, bias=False)

    def decode_step(self, tgt_ids_Bx1, cache):
        x = self.embeddings(tgt_ids_Bx1)
        x = x + self.self_attention(x, cache)
        return self.logits_dense(x)

compute_dtype = torch.bfloat16
decoder = Decoder().to(compute_dtype).eval()
self_attn_cache = KVCache(num_heads=4, max_len=16, head_dim=8)
'''
CELL = '''
with torch.no_grad():
    tokens = torch.ones((2, 1), dtype=torch.long)
    for step in range(4):
        logits_Bx1xV = decoder.decode_step(tokens, self_attn_cache)
        tokens = logits_Bx1xV[:, -1].argmax(-1, keepdim=True)
'''
EXPECT_ERROR = "Expected query, key, and value to have the same dtype"
CULPRITS = ["attn_k", "attn_v"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        attn_output = F.scaled_dot_product_attention(",
                  "        attn_k = attn_k.to(Xq_BxNxTxH.dtype)\n        attn_v = attn_v.to(Xq_BxNxTxH.dtype)\n        attn_output = F.scaled_dot_product_attention(")
CLEAN = False
