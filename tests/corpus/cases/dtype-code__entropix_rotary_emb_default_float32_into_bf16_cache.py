"""entropix's torch port: `apply_rotary_emb` returns float32 queries by default while the weights and KV cache are bfloat16.

Source: https://github.com/xjdr-alt/entropix/pull/59
Running the torch model failed with "expected scalar type BFloat16 but found Float": the weights are
loaded as bfloat16 and the KV cache stores bfloat16, but
`apply_rotary_emb(xq, xk, freqs_cis, dtype: torch.dtype = torch.float32)` casts its outputs to the
hard-coded default float32, so `torch.matmul(xq, keys)` in `attention` multiplies float32 queries
by bfloat16 keys. The PR changes the default to `torch.bfloat16`. Stand-in: one transformer layer
with the repo's `attention`, `KVCache.update` and weights as plain bf16 tensors in dataclasses.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
from dataclasses import dataclass
from typing import List, Optional, Tuple
import torch
import torch.nn.functional as F

DEFAULT_MASK_VALUE = -0.7 * float(torch.finfo(torch.float32).max)

@dataclass
class ModelParams:
    n_layers: int = 1
    n_local_heads: int = 4
    n_local_kv_heads: int = 2
    head_dim: int = 16
    max_seq_len: int = 32

@dataclass
class LayerWeights:
    wq: torch.Tensor
    wk: torch.Tensor
    wv: torch.Tensor
    wo: torch.Tensor
    attention_norm: torch.Tensor

@dataclass
class XfmrWeights:
    tok_embeddings: torch.Tensor
    norm: torch.Tensor
    output: torch.Tensor
    layer_weights: List[LayerWeights]

class KVCache:
    def __init__(self, layers, bsz, max_seq_len, kv_heads, head_dim):
        self.k = torch.zeros((layers, bsz, max_seq_len, kv_heads, head_dim), dtype=torch.bfloat16)
        self.v = torch.zeros((layers, bsz, max_seq_len, kv_heads, head_dim), dtype=torch.bfloat16)

    def update(self, xk, xv, layer_idx, cur_pos, n_rep):
        insert_len = xk.size(1)
        self.k[layer_idx, :, cur_pos:cur_pos + insert_len] = xk.to(self.k.dtype)
        self.v[layer_idx, :, cur_pos:cur_pos + insert_len] = xv.to(self.v.dtype)
        keys = self.k[layer_idx, :, :cur_pos + insert_len]
        values = self.v[layer_idx, :, :cur_pos + insert_len]
        keys = torch.repeat_interleave(keys, n_rep, dim=2)
        values = torch.repeat_interleave(values, n_rep, dim=2)
        return keys, values, self

def rms_norm(x, w, eps=1e-6):
    return w * (x * torch.rsqrt(torch.pow(x, 2).mean(-1, keepdim=True) + eps))

def precompute_freqs_cis(dim, end, theta=500000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    freqs = torch.outer(torch.arange(end).float(), freqs)
    return torch.polar(torch.ones_like(freqs), freqs)

def apply_rotary_emb(xq: torch.Tensor, xk: torch.Tensor, freqs_cis: torch.Tensor, dtype: torch.dtype = torch.float32) -> Tuple[torch.Tensor, torch.Tensor]:
    reshape_xq = xq.float().reshape(*xq.shape[:-1], -1, 2)
    reshape_xk = xk.float().reshape(*xk.shape[:-1], -1, 2)
    xq_ = torch.complex(reshape_xq[..., 0], reshape_xq[..., 1])
    xk_ = torch.complex(reshape_xk[..., 0], reshape_xk[..., 1])
    xq_out = xq_ * freqs_cis.unsqueeze(0).unsqueeze(2)
    xk_out = xk_ * freqs_cis.unsqueeze(0).unsqueeze(2)
    xq_out = torch.stack((xq_out.real, xq_out.imag), dim=-1).reshape(*xq_out.shape[:-1], -1)
    xk_out = torch.stack((xk_out.real, xk_out.imag), dim=-1).reshape(*xk_out.shape[:-1], -1)
    return xq_out.to(dtype), xk_out.to(dtype)

def attention(x, layer_weights, model_params, cur_pos, layer_idx, freqs_cis, kvcache, attn_mask=None):
    bsz, _, _ = x.shape
    n_rep = model_params.n_local_heads // model_params.n_local_kv_heads
    xq = F.linear(x, layer_weights.wq).reshape(bsz, -1, model_params.n_local_heads, model_params.head_dim)
    xk = F.linear(x, layer_weights.wk).reshape(bsz, -1, model_params.n_local_kv_heads, model_params.head_dim)
    xv = F.linear(x, layer_weights.wv).reshape(bsz, -1, model_params.n_local_kv_heads, model_params.head_dim)
    xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
    keys, values, kvcache = kvcache.update(xk, xv, layer_idx, cur_pos, n_rep)
    xq = torch.permute(xq, (0, 2, 1, 3))          # (bs, n_heads, seqlen, head_dim)
    keys = torch.permute(keys, (0, 2, 3, 1))      # (bs, n_heads, head_dim, cache_len + seqlen)
    values = torch.permute(values, (0, 2, 1, 3))  # (bs, n_heads, cache_len + seqlen, head_dim)
    scores = torch.matmul(xq, keys)
    pre_scores = scores / math.sqrt(model_params.head_dim)
    scores = pre_scores.to(torch.float32)  # Always do attention softmax at float32
    if cur_pos == 0:
        scores = scores + attn_mask
    mask = torch.where(scores != 0.0, scores, DEFAULT_MASK_VALUE)
    padded_logits = torch.where((mask >= DEFAULT_MASK_VALUE * 0.5), scores, DEFAULT_MASK_VALUE)
    scores = F.softmax(padded_logits, dim=-1).to(torch.bfloat16)
    output = torch.matmul(scores, values)
    output = output.transpose(1, 2).reshape(xq.shape[0], xq.shape[2], -1)
    out = F.linear(output, layer_weights.wo)
    return out, kvcache, pre_scores

def xfmr(xfmr_weights, model_params, tokens, cur_pos, freqs_cis, kvcache, attn_mask=None):
    h = xfmr_weights.tok_embeddings[tokens]
    for i in range(model_params.n_layers):
        norm_x = rms_norm(h, xfmr_weights.layer_weights[i].attention_norm)
        h_attn, kvcache, scores = attention(norm_x, xfmr_weights.layer_weights[i], model_params,
                                            cur_pos, i, freqs_cis, kvcache, attn_mask=attn_mask)
        h = h + h_attn
    logits = F.linear(rms_norm(h, xfmr_weights.norm), xfmr_weights.output)
    return logits, kvcache, scores

params = ModelParams()
dim, vocab = params.n_local_heads * params.head_dim, 128
bf16 = lambda *s: (torch.randn(*s) * 0.02).to(torch.bfloat16)   # load_weights(): bfloat16 tensors
xfmr_weights = XfmrWeights(
    tok_embeddings=bf16(vocab, dim), norm=torch.ones(dim, dtype=torch.bfloat16), output=bf16(vocab, dim),
    layer_weights=[LayerWeights(wq=bf16(dim, dim), wk=bf16(params.n_local_kv_heads * params.head_dim, dim),
                                wv=bf16(params.n_local_kv_heads * params.head_dim, dim), wo=bf16(dim, dim),
                                attention_norm=torch.ones(dim, dtype=torch.bfloat16))])
tokens = torch.randint(0, vocab, (1, 10))
seqlen = tokens.shape[1]
freqs_cis = precompute_freqs_cis(params.head_dim, params.max_seq_len)
attn_mask = torch.triu(torch.full((seqlen, seqlen), float("-inf")), diagonal=1)
kvcache = KVCache(params.n_layers, 1, params.max_seq_len, params.n_local_kv_heads, params.head_dim)
'''
CELL = '''
logits, kvcache, _ = xfmr(xfmr_weights, params, tokens, 0, freqs_cis[:seqlen], kvcache, attn_mask=attn_mask)
'''
EXPECT_ERROR = ("expected scalar type Float but found BFloat16",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["xq"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("dtype: torch.dtype = torch.float32)", "dtype: torch.dtype = torch.bfloat16)")
CLEAN = False
