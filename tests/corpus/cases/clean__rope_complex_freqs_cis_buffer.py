"""Look-alike: a LLaMA-style attention keeps its rotary table `freqs_cis` as a complex64 buffer.

Source: https://github.com/tenstorrent/tt-metal/pull/27426
Meta's LLaMA reference builds `freqs_cis` with `torch.polar` (complex64) and applies it through
`view_as_complex`; ports register it as a buffer beside the float weights. The PR fixes a pipeline
that cast `freqs_cis` to bfloat16 and then failed: "freqs_cis are complex, and therefore always a
combination of floats". A complex table beside real weights is how RoPE works, and casting it to a
real dtype drops its imaginary part. The forward runs: no finding may be reported.
Stand-in: the reference's `precompute_freqs_cis` and `apply_rotary_emb`, one query projection.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)

def apply_rotary_emb(xq, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    return torch.view_as_real(xq_ * freqs_cis).flatten(-2).type_as(xq)

class Attention(nn.Module):
    def __init__(self, dim, max_seq_len):
        super().__init__()
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.register_buffer("freqs_cis", precompute_freqs_cis(dim, max_seq_len),
                             persistent=False)

    def forward(self, x):
        q = apply_rotary_emb(self.wq(x), self.freqs_cis[: x.shape[1]])
        return self.wo(q)

model = Attention(16, 64)
x = torch.randn(2, 10, 16)
'''
CELL = '''
out = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
