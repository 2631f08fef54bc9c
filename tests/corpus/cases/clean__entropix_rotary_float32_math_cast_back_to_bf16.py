"""Look-alike: a bf16 model whose rotary embedding computes in float32 and casts back to the query dtype.

Source: https://github.com/xjdr-alt/entropix/pull/59
After the PR the rotary helper still upcasts `xq`/`xk` to float32 and builds complex numbers from a
float32 `freqs_cis`, but returns bfloat16, so the bf16 KV cache and the bf16 matmuls see one dtype;
the attention softmax is then done in float32 on purpose and cast back. Mixed precision by design,
nothing to report.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn.functional as F

def apply_rotary_emb(xq, xk, freqs_cis, dtype=torch.bfloat16):
    reshape_xq = xq.float().reshape(*xq.shape[:-1], -1, 2)
    reshape_xk = xk.float().reshape(*xk.shape[:-1], -1, 2)
    xq_ = torch.complex(reshape_xq[..., 0], reshape_xq[..., 1])
    xk_ = torch.complex(reshape_xk[..., 0], reshape_xk[..., 1])
    xq_out = xq_ * freqs_cis.unsqueeze(0).unsqueeze(2)
    xk_out = xk_ * freqs_cis.unsqueeze(0).unsqueeze(2)
    xq_out = torch.stack((xq_out.real, xq_out.imag), dim=-1).reshape(*xq_out.shape[:-1], -1)
    xk_out = torch.stack((xk_out.real, xk_out.imag), dim=-1).reshape(*xk_out.shape[:-1], -1)
    return xq_out.to(dtype), xk_out.to(dtype)

def precompute_freqs_cis(dim, end, theta=500000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    freqs = torch.outer(torch.arange(end).float(), freqs)
    return torch.polar(torch.ones_like(freqs), freqs)

def attention(x, wq, wk, wv, wo, freqs_cis, cache_k, n_heads=4, head_dim=16):
    bsz, seqlen, _ = x.shape
    xq = F.linear(x, wq).reshape(bsz, seqlen, n_heads, head_dim)
    xk = F.linear(x, wk).reshape(bsz, seqlen, n_heads, head_dim)
    xv = F.linear(x, wv).reshape(bsz, seqlen, n_heads, head_dim)
    xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
    cache_k[:, :seqlen] = xk
    keys = cache_k[:, :seqlen]
    scores = torch.matmul(xq.permute(0, 2, 1, 3), keys.permute(0, 2, 3, 1)) / math.sqrt(head_dim)
    scores = F.softmax(scores.to(torch.float32), dim=-1).to(torch.bfloat16)
    out = torch.matmul(scores, xv.permute(0, 2, 1, 3)).transpose(1, 2).reshape(bsz, seqlen, -1)
    return F.linear(out, wo)

dim = 64
bf16 = lambda *s: (torch.randn(*s) * 0.02).to(torch.bfloat16)
wq, wk, wv, wo = bf16(dim, dim), bf16(dim, dim), bf16(dim, dim), bf16(dim, dim)
x = bf16(1, 10, dim)
freqs_cis = precompute_freqs_cis(16, 32)
cache_k = torch.zeros(1, 32, 4, 16, dtype=torch.bfloat16)
'''
CELL = '''
h = attention(x, wq, wk, wv, wo, freqs_cis[:10], cache_k)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
