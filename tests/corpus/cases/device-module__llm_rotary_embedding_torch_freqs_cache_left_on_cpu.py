"""rotary-embedding-torch: a RotaryEmbedding primed on the CPU is then used on GPU queries; its freqs/cache stay on the CPU.

Source: https://github.com/lucidrains/rotary-embedding-torch/pull/48
"When rotary caches are created on CPU and later used on GPU ... einsum can throw 'Expected all
tensors to be on the same device'": the repro primes `rotary` on a CPU tensor, then calls it with the
input moved to the GPU; `rotary` itself (its `freqs` parameter and non-persistent `cached_freqs`
buffer) was never moved. The PR makes the cached/computed freqs follow the input's device.
Stand-in: RotaryEmbedding reduced to the lang-freqs path with its cache (einops replaced by torch).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def rotate_half(x):
    x = x.unflatten(-1, (-1, 2))
    x1, x2 = x.unbind(dim=-1)
    x = torch.stack((-x2, x1), dim=-1)
    return x.flatten(-2)

def apply_rotary_emb(freqs, t, scale=1.):
    return (t * freqs.cos() * scale) + (rotate_half(t) * freqs.sin() * scale)

class RotaryEmbedding(nn.Module):
    def __init__(self, dim, theta=10000, cache_if_possible=True, cache_max_seq_len=8192):
        super().__init__()
        freqs = 1. / (theta ** (torch.arange(0, dim, 2)[:(dim // 2)].float() / dim))
        self.freqs = nn.Parameter(freqs, requires_grad=False)
        self.cache_if_possible = cache_if_possible
        self.cache_max_seq_len = cache_max_seq_len
        self.register_buffer('cached_freqs', torch.zeros(cache_max_seq_len, dim), persistent=False)
        self.cached_freqs_seq_len = 0

    def rotate_queries_or_keys(self, t, seq_dim=-2, offset=0):
        device, dtype, seq_len = t.device, t.dtype, t.shape[seq_dim]
        seq = torch.arange(seq_len, device=device, dtype=dtype) + offset
        freqs = self.forward(seq, seq_len=seq_len, offset=offset)
        return apply_rotary_emb(freqs, t)

    def forward(self, t, seq_len=None, offset=0):
        should_cache = self.cache_if_possible and seq_len is not None and (offset + seq_len) <= self.cache_max_seq_len
        if should_cache and (offset + seq_len) <= self.cached_freqs_seq_len:
            return self.cached_freqs[offset:(offset + seq_len)].detach()
        freqs = self.freqs
        freqs = torch.einsum('..., f -> ... f', t.type(freqs.dtype), freqs)
        freqs = freqs.repeat_interleave(2, dim=-1)
        if should_cache and offset == 0:
            self.cached_freqs[:seq_len] = freqs.detach()
            self.cached_freqs_seq_len = seq_len
        return freqs

rotary = RotaryEmbedding(dim=32, cache_if_possible=True)
x = torch.randn(1, 8, 128, 32)
_ = rotary.rotate_queries_or_keys(x)      # prime cache on CPU
device = "cuda:0"
x_gpu = x.to(device)
'''
CELL = '''
out = rotary.rotate_queries_or_keys(x_gpu)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rotary"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return self.cached_freqs[offset:(offset + seq_len)].detach()",
                  "return self.cached_freqs[offset:(offset + seq_len)].detach().to(t.device)")
CLEAN = False
