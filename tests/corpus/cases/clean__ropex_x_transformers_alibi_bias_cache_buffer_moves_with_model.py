"""x-transformers' ALiBi bias is cached on the CPU by a first forward, then the model is moved to the GPU: the cache is a buffer and moves too.

Source: https://github.com/lucidrains/x-transformers/blob/main/x_transformers/x_transformers.py
(`AlibiPositionalBias`, `pad_at_dim`, the causal mask of `Attention.forward`).
Looks like a stale positional cache: `AlibiPositionalBias.forward` stores the bias it built with
`self.register_buffer('bias', bias, persistent=False)` and returns the cached tensor on later
calls without checking its device; here the user ran one CPU sanity forward (filling the cache on
the CPU) before `model.to("cuda:0")`. But the cache, like the `slopes`, is a registered
(non-persistent) buffer, so `Module.to()` moves it with the weights; new biases are built on
`self.device` (the buffers' device) and the causal mask on the scores' device. Stand-in: a
one-block decoder with x-transformers' ALiBi module and attention math.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch import nn

def exists(v):
    return v is not None

def pad_at_dim(t, pad, dim=-1, value=0.):
    dims_from_right = (- dim - 1) if dim < 0 else (t.ndim - dim - 1)
    zeros = ((0, 0) * dims_from_right)
    return F.pad(t, (*zeros, *pad), value=value)

class AlibiPositionalBias(nn.Module):
    def __init__(self, heads, total_heads, **kwargs):
        super().__init__()
        self.heads = heads
        self.total_heads = total_heads
        slopes = torch.Tensor(self._get_slopes(heads)).view(heads, 1, 1)
        self.register_buffer('slopes', slopes, persistent=False)
        self.register_buffer('bias', None, persistent=False)

    def get_bias(self, i, j, device):
        i_arange = torch.arange(j - i, j, device=device)
        j_arange = torch.arange(j, device=device)
        bias = -torch.abs(j_arange.view(1, 1, j) - i_arange.view(1, i, 1))
        return bias

    @staticmethod
    def _get_slopes(heads):
        def get_slopes_power_of_2(n):
            start = (2**(-2**-(math.log2(n)-3)))
            ratio = start
            return [start*ratio**i for i in range(n)]
        if math.log2(heads).is_integer():
            return get_slopes_power_of_2(heads)
        closest_power_of_2 = 2 ** math.floor(math.log2(heads))
        return get_slopes_power_of_2(closest_power_of_2) + get_slopes_power_of_2(2 * closest_power_of_2)[0::2][:heads-closest_power_of_2]

    @property
    def device(self):
        return next(self.buffers()).device

    def forward(self, i, j):
        h, device = self.total_heads, self.device
        if exists(self.bias) and self.bias.shape[-1] >= j and self.bias.shape[-2] >= i:
            return self.bias[..., -i:, -j:]
        bias = self.get_bias(i, j, device)
        bias = bias * self.slopes
        num_heads_unalibied = h - bias.shape[0]
        bias = pad_at_dim(bias, (0, num_heads_unalibied), dim=0)
        self.register_buffer('bias', bias, persistent=False)
        return self.bias

class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=16):
        super().__init__()
        self.heads, self.scale = heads, dim_head ** -0.5
        self.to_q = nn.Linear(dim, heads * dim_head, bias=False)
        self.to_k = nn.Linear(dim, heads * dim_head, bias=False)
        self.to_v = nn.Linear(dim, heads * dim_head, bias=False)
        self.to_out = nn.Linear(heads * dim_head, dim, bias=False)

    def forward(self, x, rel_pos):
        b, n, _ = x.shape
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in (self.to_q(x), self.to_k(x), self.to_v(x)))
        sim = (q @ k.transpose(-1, -2)) * self.scale
        i, j, device = sim.shape[-2], sim.shape[-1], sim.device
        sim = sim + rel_pos(i, j)
        causal_mask = torch.ones((i, j), device=device, dtype=torch.bool).triu(j - i + 1)
        sim = sim.masked_fill(causal_mask, -torch.finfo(sim.dtype).max)
        out = sim.softmax(dim=-1) @ v
        return self.to_out(out.transpose(1, 2).reshape(b, n, -1))

class Decoder(nn.Module):
    def __init__(self, num_tokens=256, dim=64, heads=8, alibi_num_heads=4):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.rel_pos = AlibiPositionalBias(heads=alibi_num_heads, total_heads=heads)
        self.norm = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        h = self.token_emb(x)
        h = h + self.attn(self.norm(h), self.rel_pos)
        return self.to_logits(h)

model = Decoder()
with torch.no_grad():
    _ = model(torch.randint(0, 256, (1, 32)))      # CPU sanity check: fills rel_pos.bias on the CPU
model = model.to("cuda:0")
seq = torch.randint(0, 256, (2, 24)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(seq)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
