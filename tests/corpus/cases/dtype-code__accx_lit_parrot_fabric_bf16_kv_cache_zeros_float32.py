"""lit-parrot generate.py (Fabric, bf16 model): the KV caches are allocated with `torch.zeros(...)` in float32 and `index_copy` refuses the bf16 keys.

Source: https://github.com/Lightning-AI/litgpt/issues/57
`python generate.py --prompt "Hello, my name is" --checkpoint_dir checkpoints/stabilityai/stablelm-tuned-alpha-3b`
failed in lit_parrot/model.py with `k = cache_k.index_copy(2, input_pos, k)`: "RuntimeError: index_copy_():
self and source expected to have the same dtype, but got (self) Float and (source) BFloat16". generate.py
builds the model in bfloat16 (`EmptyInitOnDevice(device=fabric.device, dtype=dtype)`, then
`fabric.setup_module(model)`), but `Parrot.forward` creates `self.kv_caches` with
`torch.zeros(k_cache_shape, device=idx.device)`, i.e. the default float32. The reporter cast the caches to
bf16; PR #64 ("Set dtype of kv_caches correctly") allocates them with `device=x.device, dtype=x.dtype`.
Stand-ins: a minimal Fabric `setup_module` wrapper and a one-block `Parrot` with the same cache code (no
rotary embedding).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from typing import List, Optional, Tuple
import torch
import torch.nn as nn
from torch.nn import functional as F

KVCache = Tuple[torch.Tensor, torch.Tensor]


class _FabricModule(nn.Module):
    def __init__(self, module):
        super().__init__()
        self._forward_module = module

    def forward(self, *args, **kwargs):
        return self._forward_module(*args, **kwargs)


class Fabric:
    def __init__(self, devices=1):
        self.device = torch.device("cpu")

    def setup_module(self, module):
        return _FabricModule(module.to(self.device))


class Config:
    block_size = 32
    vocab_size = 64
    n_layer = 1
    n_head = 2
    n_embd = 16


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attn = nn.Linear(config.n_embd, 3 * config.n_embd)
        self.proj = nn.Linear(config.n_embd, config.n_embd)
        self.n_head = config.n_head

    def forward(self, x, mask, max_seq_length, input_pos=None, kv_cache=None):
        B, T, C = x.size()
        qkv = self.attn(x)
        head_size = C // self.n_head
        qkv = qkv.view(B, T, self.n_head, 3 * head_size).transpose(1, 2)
        q, k, v = qkv.split(head_size, dim=-1)
        if input_pos is not None and kv_cache is not None:
            cache_k, cache_v = kv_cache
            k = cache_k.index_copy(2, input_pos, k)
            v = cache_v.index_copy(2, input_pos, v)
            kv_cache = k, v
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y), kv_cache


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.norm_1 = nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config)

    def forward(self, x, mask, max_seq_length, input_pos=None, kv_cache=None):
        h, new_kv_cache = self.attn(self.norm_1(x), mask, max_seq_length, input_pos, kv_cache)
        return x + h, new_kv_cache


class Parrot(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            h=nn.ModuleList(Block(config) for _ in range(config.n_layer)),
            ln_f=nn.LayerNorm(config.n_embd),
        ))
        self.mask_cache: Optional[torch.Tensor] = None
        self.kv_caches: List[KVCache] = []

    def forward(self, idx, max_seq_length=None, input_pos=None):
        B, T = idx.size()
        max_seq_length = max_seq_length or self.config.block_size
        if self.mask_cache is None:
            ones = torch.ones((self.config.block_size, self.config.block_size), device=idx.device, dtype=torch.bool)
            self.mask_cache = torch.tril(ones).unsqueeze(0).unsqueeze(0)
        mask = self.mask_cache.index_select(2, input_pos)[:, :, :, :max_seq_length]

        x = self.transformer.wte(idx)
        if not self.kv_caches:
            head_size = self.config.n_embd // self.config.n_head
            k_cache_shape = (B, self.config.n_head, max_seq_length, head_size)
            v_cache_shape = (B, self.config.n_head, max_seq_length, head_size)
            self.kv_caches = [
                (torch.zeros(k_cache_shape, device=idx.device), torch.zeros(v_cache_shape, device=idx.device))
                for _ in range(self.config.n_layer)
            ]
        for i, block in enumerate(self.transformer.h):
            x, self.kv_caches[i] = block(x, mask, max_seq_length, input_pos, self.kv_caches[i])
        x = self.transformer.ln_f(x)
        return self.lm_head(x)


@torch.no_grad()
def generate(model, idx, max_new_tokens, max_seq_length=None, temperature=1.0, top_k=None):
    T = idx.size(0)
    T_new = T + max_new_tokens
    max_seq_length = max_seq_length or min(T_new, 32)
    device, dtype = idx.device, idx.dtype
    empty = torch.empty(T_new, dtype=dtype, device=device)
    empty[:T] = idx
    idx = empty
    input_pos = torch.arange(0, T, device=device)
    for _ in range(max_new_tokens):
        x = idx.index_select(0, input_pos).view(1, -1)
        logits = model(x, max_seq_length, input_pos)
        logits = logits[0, -1] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits = torch.where(logits < v[[-1]], -float("Inf"), logits)
        probs = torch.nn.functional.softmax(logits, dim=-1)
        idx_next = torch.multinomial(probs.float(), num_samples=1).to(dtype=dtype)
        input_pos = input_pos[-1:] + 1
        idx = idx.index_copy(0, input_pos, idx_next)
    return idx


fabric = Fabric(devices=1)
dtype = torch.bfloat16          # "cuda" and torch.cuda.is_bf16_supported()
model = Parrot(Config()).to(dtype=dtype)     # with EmptyInitOnDevice(device=fabric.device, dtype=dtype)
model.eval()
model = fabric.setup_module(model)
encoded = torch.tensor([5, 17, 3, 42, 8], device=fabric.device)   # tokenizer.encode(prompt, device=fabric.device)
max_new_tokens, temperature, top_k = 8, 0.8, 20
'''
CELL = '''
y = generate(model, encoded, max_new_tokens, temperature=temperature, top_k=top_k)
'''
EXPECT_ERROR = ("expected to have the same dtype", "must have the same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "(torch.zeros(k_cache_shape, device=idx.device), torch.zeros(v_cache_shape, device=idx.device))",
    "(torch.zeros(k_cache_shape, device=x.device, dtype=x.dtype), torch.zeros(v_cache_shape, device=x.device, dtype=x.dtype))",
)
CLEAN = False
