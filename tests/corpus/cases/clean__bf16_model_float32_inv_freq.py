"""Look-alike: a bfloat16 model whose rotary `inv_freq` buffer stayed float32, as `from_pretrained` leaves it.

Source: https://github.com/huggingface/transformers/issues/30709
`from_pretrained(..., torch_dtype=torch.bfloat16)` casts the parameters but leaves buffers such as
the rotary embedding's `inv_freq` in float32; the reporter saw other logits once a trainer's
`model.to(bfloat16)` cast them too (transformers #29496: a bfloat16 `inv_freq` gives wrong
rotary angles). The rotary module computes cos/sin in float32 and casts them to the activations'
dtype, so the forward runs: no warning may be reported, and no cast of `inv_freq` offered.
Stand-in: transformers' LLaMA rotary embedding and one attention projection.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        freqs = (inv_freq @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)
        self.rotary_emb = RotaryEmbedding(dim)

    def forward(self, x, position_ids):
        cos, sin = self.rotary_emb(x, position_ids)
        q = self.q_proj(x)
        return self.o_proj(q * cos + rotate_half(q) * sin)

model = Attention(16)
model.q_proj.to(torch.bfloat16)  # what from_pretrained(torch_dtype=torch.bfloat16) leaves:
model.o_proj.to(torch.bfloat16)  # the parameters cast, the buffers kept in float32
x = torch.randn(2, 10, 16, dtype=torch.bfloat16)
position_ids = torch.arange(10).unsqueeze(0).expand(2, -1)
'''
CELL = '''
out = model(x, position_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
