"""entropix on Apple Silicon: the KV cache's buffers are created on a per-file `device` that is CUDA-or-CPU, while the model runs on mps.

Source: https://github.com/xjdr-alt/entropix/pull/41
"Bug: device not set correctly, some tensors on `cpu` while the rest are successfully on `mps`"
("Placeholder storage has not been allocated on MPS device!"). The device logic was duplicated across
files and `torch_kvcache.py` still chose `"cuda" if torch.cuda.is_available() else "cpu"`, so
`KVCache.new(...)` registered its `k`/`v` buffers on the CPU while weights and activations were on
mps; a commenter adds that once the buffers are on the right device nothing else needs moving.
Stand-in: KVCache (an nn.Module with `k`/`v` buffers and `update`) and one attention layer of the
xfmr; cuda:0 stands in for mps; float32 instead of bfloat16.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

kv_device = torch.device("cuda" if torch.cuda.is_available() else "cpu")   # torch_kvcache.py

class KVCache(nn.Module):
    def __init__(self, layers, bsz, max_seq_len, kv_heads, head_dim):
        super().__init__()
        self.register_buffer('k', torch.zeros((layers, bsz, max_seq_len, kv_heads, head_dim), device=kv_device))
        self.register_buffer('v', torch.zeros((layers, bsz, max_seq_len, kv_heads, head_dim), device=kv_device))

    @classmethod
    def new(cls, layers, bsz, max_seq_len, kv_heads, head_dim):
        return cls(layers, bsz, max_seq_len, kv_heads, head_dim)

    def update(self, xk, xv, layer_idx, cur_pos):
        keys = torch.cat([self.k[layer_idx, :, :cur_pos], xk], dim=1)
        values = torch.cat([self.v[layer_idx, :, :cur_pos], xv], dim=1)
        return keys, values, self

class Attention(nn.Module):
    def __init__(self, dim=64, n_heads=4):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x, kvcache, layer_idx, cur_pos):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        keys, values, kvcache = kvcache.update(xk, xv, layer_idx, cur_pos)
        scores = torch.einsum('bqhd,bkhd->bhqk', xq, keys) / self.head_dim ** 0.5
        out = torch.einsum('bhqk,bkhd->bqhd', F.softmax(scores, dim=-1), values)
        return self.wo(out.reshape(bsz, seqlen, -1)), kvcache

device = torch.device("cuda:0")     # torch_main.py: "mps"
attn = Attention().to(device)
kvcache = KVCache.new(1, 1, 128, 4, 16)
h = torch.randn(1, 8, 64).to(device)
'''
CELL = '''
out, kvcache = attn(h, kvcache, layer_idx=0, cur_pos=0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["kvcache"]
FIX = "namespace"
REFERENCE_FIX = '''
kvcache = kvcache.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
