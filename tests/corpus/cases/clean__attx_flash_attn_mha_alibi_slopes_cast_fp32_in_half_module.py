"""Look-alike: flash-attn's MHA keeps `alibi_slopes` as a buffer and casts it back to float32 in a half module.

Source: https://github.com/Dao-AILab/flash-attention/pull/846
"Cast the alibi slopes to torch.float32": the `MHA` module may be cast to fp16/bf16, which casts the
`alibi_slopes` buffer too, but the kernel wants fp32 slopes; the PR casts them in `forward`
(`self.alibi_slopes.to(torch.float32)`). Mixed dtypes on purpose: fp16 q/k/v, an fp32 bias built
from the slopes, scores accumulated in fp32 and the output cast back to the activations' dtype.
Stand-in: the CUDA kernel replaced by its math (ALiBi bias, softmax in fp32); CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def get_alibi_slopes(nheads):
    start = 2 ** (-(2 ** -(math.log2(nheads) - 3)))
    return torch.tensor([start * start ** i for i in range(nheads)])

def flash_attn_qkvpacked_func(qkv, causal=False, alibi_slopes=None, softmax_scale=None):
    # stand-in for the CUDA kernel: bias and softmax accumulate in fp32
    q, k, v = qkv.unbind(dim=2)                              # (b, s, h, d)
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))
    scale = softmax_scale or q.shape[-1] ** -0.5
    scores = (q @ k.transpose(-1, -2)).float() * scale
    s = q.shape[-2]
    pos = torch.arange(s, device=q.device)
    bias = -alibi_slopes.view(1, -1, 1, 1) * (pos.view(1, -1) - pos.view(-1, 1)).abs()
    if causal:
        bias = bias.masked_fill(pos.view(1, -1) > pos.view(-1, 1), float("-inf"))
    attn = (scores + bias).softmax(-1).to(v.dtype)
    return (attn @ v).transpose(1, 2)

class MHA(nn.Module):
    def __init__(self, embed_dim, num_heads, causal=True, use_alibi=True):
        super().__init__()
        self.num_heads, self.head_dim, self.causal = num_heads, embed_dim // num_heads, causal
        if use_alibi:
            self.register_buffer("alibi_slopes", get_alibi_slopes(num_heads), persistent=False)
        else:
            self.alibi_slopes = None
        self.Wqkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        b, s, _ = x.shape
        qkv = self.Wqkv(x).view(b, s, 3, self.num_heads, self.head_dim)
        alibi_slopes = None if self.alibi_slopes is None else self.alibi_slopes.to(torch.float32)
        context = flash_attn_qkvpacked_func(qkv, causal=self.causal, alibi_slopes=alibi_slopes)
        return self.out_proj(context.reshape(b, s, -1))

mha = MHA(embed_dim=64, num_heads=8).half()
x = torch.randn(2, 10, 64, dtype=torch.half)
'''
CELL = '''
with torch.no_grad():
    out = mha(x)
print(out.dtype, mha.alibi_slopes.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
