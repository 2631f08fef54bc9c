"""gpt-fast decoding: prompt tokens, sampled tokens and the decode `input_pos` are int32 tensors used as embedding indices, mask/RoPE indices and KV-cache write positions of a bf16 model.

Source: https://github.com/meta-pytorch/gpt-fast/blob/main/generate.py
`encode_tokens` returns `torch.tensor(tokens, dtype=torch.int, device=device)`,
`multinomial_sample_one_no_sync` returns `torch.argmax(probs_sort / q, dim=-1, keepdim=True).to(dtype=torch.int)`,
and after `prefill` `generate` sets `input_pos = torch.tensor([T], device=device, dtype=torch.int)` for
`decode_n_tokens`; in model.py these int32 tensors index `self.causal_mask[None, None, input_pos]`,
`self.freqs_cis[input_pos]`, feed `tok_embeddings`, and write `k_out[:, :, input_pos] = k_val` into the
bf16 `KVCache`. Look-alike: int32 (not int64) indices everywhere plus a bf16 cache; indexing and
index_put accept int32, so it runs.
Stand-ins: the gpt-fast `Transformer` of March 2024 reduced to two layers without RoPE rotation, the
sampling helpers and the non-speculative `generate` path (CPU, bf16).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from typing import Optional
import torch
from torch import nn
from torch.nn import functional as F

def find_multiple(n, k):
    return n if n % k == 0 else n + k - (n % k)

class KVCache(nn.Module):
    def __init__(self, max_batch_size, max_seq_length, n_heads, head_dim, dtype=torch.bfloat16):
        super().__init__()
        cache_shape = (max_batch_size, n_heads, max_seq_length, head_dim)
        self.register_buffer("k_cache", torch.zeros(cache_shape, dtype=dtype))
        self.register_buffer("v_cache", torch.zeros(cache_shape, dtype=dtype))

    def update(self, input_pos, k_val, v_val):
        assert input_pos.shape[0] == k_val.shape[2]
        k_out = self.k_cache
        v_out = self.v_cache
        k_out[:, :, input_pos] = k_val
        v_out[:, :, input_pos] = v_val
        return k_out, v_out

class Attention(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.n_head, self.head_dim, self.dim = n_head, dim // n_head, dim
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.kv_cache = None

    def forward(self, x, freqs_cis, mask, input_pos=None):
        bsz, seqlen, _ = x.shape
        q, k, v = self.wqkv(x).split([self.dim, self.dim, self.dim], dim=-1)
        q, k, v = (t.view(bsz, seqlen, self.n_head, self.head_dim).transpose(1, 2) for t in (q, k, v))
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0)
        return self.wo(y.transpose(1, 2).contiguous().view(bsz, seqlen, self.dim))

class TransformerBlock(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.attention = Attention(dim, n_head)
        self.attention_norm = nn.LayerNorm(dim)
    def forward(self, x, input_pos, freqs_cis, mask):
        return x + self.attention(self.attention_norm(x), freqs_cis, mask, input_pos)

class Transformer(nn.Module):
    def __init__(self, vocab_size=64, dim=32, n_head=4, n_layer=2, block_size=64):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([TransformerBlock(dim, n_head) for _ in range(n_layer)])
        self.norm = nn.LayerNorm(dim)
        self.output = nn.Linear(dim, vocab_size, bias=False)
        self.dim, self.n_head, self.block_size = dim, n_head, block_size
        self.freqs_cis = None
        self.causal_mask = None
        self.max_batch_size = -1
        self.max_seq_length = -1

    def setup_caches(self, max_batch_size, max_seq_length):
        head_dim = self.dim // self.n_head
        max_seq_length = find_multiple(max_seq_length, 8)
        self.max_seq_length = max_seq_length
        self.max_batch_size = max_batch_size
        dtype = self.output.weight.dtype
        for b in self.layers:
            b.attention.kv_cache = KVCache(max_batch_size, max_seq_length, self.n_head, head_dim, dtype)
        self.freqs_cis = torch.ones(self.block_size, head_dim // 2, 2, dtype=dtype)
        self.causal_mask = torch.tril(torch.ones(self.max_seq_length, self.max_seq_length, dtype=torch.bool))

    def forward(self, idx, input_pos):
        mask = self.causal_mask[None, None, input_pos]
        freqs_cis = self.freqs_cis[input_pos]
        x = self.tok_embeddings(idx)
        for layer in self.layers:
            x = layer(x, input_pos, freqs_cis, mask)
        return self.output(self.norm(x))

def multinomial_sample_one_no_sync(probs_sort):
    q = torch.empty_like(probs_sort).exponential_(1)
    return torch.argmax(probs_sort / q, dim=-1, keepdim=True).to(dtype=torch.int)

def logits_to_probs(logits, temperature: float = 1.0, top_k: Optional[int] = None):
    logits = logits / max(temperature, 1e-5)
    if top_k is not None:
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        pivot = v.select(-1, -1).unsqueeze(-1)
        logits = torch.where(logits < pivot, -float("Inf"), logits)
    return torch.nn.functional.softmax(logits, dim=-1)

def sample(logits, temperature: float = 1.0, top_k: Optional[int] = None):
    probs = logits_to_probs(logits[0, -1], temperature, top_k)
    idx_next = multinomial_sample_one_no_sync(probs)
    return idx_next, probs

def prefill(model, x, input_pos, **sampling_kwargs):
    logits = model(x, input_pos)
    return sample(logits, **sampling_kwargs)[0]

def decode_one_token(model, x, input_pos, **sampling_kwargs):
    assert input_pos.shape[-1] == 1
    logits = model(x, input_pos)
    return sample(logits, **sampling_kwargs)

def decode_n_tokens(model, cur_token, input_pos, num_new_tokens, **sampling_kwargs):
    new_tokens, new_probs = [], []
    for i in range(num_new_tokens):
        next_token, next_prob = decode_one_token(model, cur_token, input_pos, **sampling_kwargs)
        input_pos += 1
        new_tokens.append(next_token.clone())
        new_probs.append(next_prob.clone())
        cur_token = next_token.view(1, -1)
    return new_tokens, new_probs

@torch.no_grad()
def generate(model, prompt, max_new_tokens, **sampling_kwargs):
    T = prompt.size(0)
    T_new = T + max_new_tokens
    max_seq_length = min(T_new, model.block_size)
    device, dtype = prompt.device, prompt.dtype
    with torch.device(device):
        model.setup_caches(max_batch_size=1, max_seq_length=max_seq_length)
    empty = torch.empty(T_new, dtype=dtype, device=device)
    empty[:T] = prompt
    seq = empty
    input_pos = torch.arange(0, T, device=device)
    next_token = prefill(model, prompt.view(1, -1), input_pos, **sampling_kwargs)
    seq[T] = next_token
    input_pos = torch.tensor([T], device=device, dtype=torch.int)
    generated_tokens, _ = decode_n_tokens(model, next_token.view(1, -1), input_pos, max_new_tokens - 1, **sampling_kwargs)
    seq[T + 1:] = torch.cat(generated_tokens)
    return seq

def encode_tokens(tokens, bos=True, device="cpu"):
    if bos:
        tokens = [1] + tokens
    return torch.tensor(tokens, dtype=torch.int, device=device)

model = Transformer().to(dtype=torch.bfloat16)      # _load_model(checkpoint_path, device, precision=torch.bfloat16)
model.eval()
encoded = encode_tokens([17, 5, 42, 8, 23, 11])     # encode_tokens(tokenizer, prompt, bos=True, device=device)
'''
CELL = '''
torch.manual_seed(1234)
y = generate(model, encoded, max_new_tokens=6, temperature=0.8, top_k=20)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
