"""gpt-fast with a draft model: the KV caches and causal mask are built with no `device=` argument, inside `with torch.device(device):`, in the dtype of the output weights.

Source: https://github.com/meta-pytorch/gpt-fast/blob/main/generate.py
`main()` moves the bf16 model and the draft model to `device` and then calls `model.setup_caches(...)`
and `draft_model.setup_caches(...)` inside `with torch.device(device):`; in model.py `setup_caches`
takes `dtype = self.output.weight.dtype` and builds `KVCache` buffers with `torch.zeros(cache_shape,
dtype=dtype)`, `precompute_freqs_cis(..., dtype)` and `self.causal_mask = torch.tril(torch.ones(...,
dtype=torch.bool))` without naming a device, after the modules were moved. The device context manager
places all of them on the GPU. `prefill` then runs with `input_pos = torch.arange(0, T, device=device)`.
Look-alike: caches created after `.to(device)` with bare factory calls; it runs.
Stand-ins: the gpt-fast `Transformer`/`Attention`/`KVCache` of March 2024 reduced to two layers (no
rotary embedding; `freqs_cis` kept as an attribute that is indexed; the index ops written as
`index_select`/`index_copy_`), target and draft model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
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
        k_out = self.k_cache
        v_out = self.v_cache
        k_out.index_copy_(2, input_pos, k_val)      # k_out[:, :, input_pos] = k_val
        v_out.index_copy_(2, input_pos, v_val)
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
        if self.max_seq_length >= max_seq_length and self.max_batch_size >= max_batch_size:
            return
        head_dim = self.dim // self.n_head
        max_seq_length = find_multiple(max_seq_length, 8)
        self.max_seq_length = max_seq_length
        self.max_batch_size = max_batch_size
        dtype = self.output.weight.dtype
        for b in self.layers:
            b.attention.kv_cache = KVCache(max_batch_size, max_seq_length, self.n_head, head_dim, dtype)
        self.freqs_cis = torch.ones(self.block_size, head_dim // 2, 2, dtype=dtype)   # precompute_freqs_cis(...)
        self.causal_mask = torch.tril(torch.ones(self.max_seq_length, self.max_seq_length, dtype=torch.bool))

    def forward(self, idx, input_pos):
        mask = torch.index_select(self.causal_mask, 0, input_pos)[None, None]   # causal_mask[None, None, input_pos]
        freqs_cis = torch.index_select(self.freqs_cis, 0, input_pos)             # freqs_cis[input_pos]
        x = self.tok_embeddings(idx)
        for layer in self.layers:
            x = layer(x, input_pos, freqs_cis, mask)
        return self.output(self.norm(x))

device = "cuda:0"
precision = torch.bfloat16
model = Transformer().to(device=device, dtype=precision)          # _load_model(checkpoint_path, device, precision)
draft_model = Transformer(n_layer=1).to(device=device, dtype=precision)
model.eval(); draft_model.eval()
prompt = torch.randint(0, 64, (9,)).to(device)                   # encode_tokens(tokenizer, prompt, device=device)
'''
CELL = '''
T = prompt.size(0)
max_seq_length = T + 16
with torch.device(device):
    model.setup_caches(max_batch_size=1, max_seq_length=max_seq_length)
    draft_model.setup_caches(max_batch_size=1, max_seq_length=max_seq_length)
input_pos = torch.arange(0, T, device=device)
with torch.no_grad():
    logits = model(prompt.view(1, -1), input_pos)
    draft_logits = draft_model(prompt.view(1, -1), input_pos)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
