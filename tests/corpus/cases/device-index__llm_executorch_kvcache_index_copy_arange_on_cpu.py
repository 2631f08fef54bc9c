"""ExecuTorch llama KVCache.update: `indices = torch.arange(seq_length) + start_pos` is made on the CPU and fed to `index_copy_` on a CUDA cache.

Source: https://github.com/pytorch/executorch/pull/19174
After the cache update path switched from `narrow().copy_()` to `index_copy_()`, running the llama
attention with `k_cache`/`v_cache` on CUDA raised "Expected all tensors to be on the same device, but
got index is on cpu, different from other tensors on cuda:0 (when checking argument in method
wrapper_CUDA_index_copy_)". The fix builds `indices` on `k_val.device`. Stand-in: the KVCache module
(dynamic-shape path; the start position passed as an int, i.e. `input_pos[0].item()`
already taken) and a one-layer llama-style attention using it.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class KVCache(nn.Module):
    def __init__(self, max_batch_size, max_context_length, n_heads, head_dim, enable_dynamic_shape=True, dtype=torch.float32):
        super().__init__()
        self.max_context_length = max_context_length
        cache_shape = (max_batch_size, n_heads, max_context_length, head_dim)
        self.enable_dynamic_shape = enable_dynamic_shape
        self.register_buffer("k_cache", torch.zeros(cache_shape, dtype=dtype))
        self.register_buffer("v_cache", torch.zeros(cache_shape, dtype=dtype))

    def update(self, input_pos, k_val, v_val):
        # input_pos: start position of the chunk, k_val: [B, H, S, D]
        start_pos = input_pos
        dim_to_slice = 2
        seq_length = k_val.size(dim_to_slice)
        indices = torch.arange(seq_length) + start_pos
        self.k_cache.index_copy_(dim_to_slice, indices, k_val)
        self.v_cache.index_copy_(dim_to_slice, indices, v_val)
        return self.k_cache, self.v_cache

class Attention(nn.Module):
    def __init__(self, dim=64, n_heads=4, max_seq_len=32):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.kv_cache = KVCache(1, max_seq_len, n_heads, self.head_dim)

    def forward(self, x, input_pos):
        bsz, seqlen, _ = x.shape
        q = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv_cache.update(input_pos, k, v)
        scores = torch.matmul(q, k.transpose(2, 3)) / self.head_dim ** 0.5
        out = torch.matmul(F.softmax(scores, dim=-1), v)
        return self.wo(out.transpose(1, 2).reshape(bsz, seqlen, -1))

attn = Attention().to("cuda:0")
x = torch.randn(1, 5, 64).to("cuda:0")
input_pos = 0                          # the runner: input_pos[0].item()
'''
CELL = '''
with torch.no_grad():
    y = attn(x, input_pos)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected to be in the same device")
CULPRITS = ["attn.kv_cache"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("indices = torch.arange(seq_length) + start_pos",
                  "indices = torch.arange(seq_length, device=k_val.device) + start_pos")
CLEAN = False
