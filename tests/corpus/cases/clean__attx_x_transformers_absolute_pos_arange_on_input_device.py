"""Look-alike: x-transformers' AbsolutePositionalEmbedding builds its positions inside forward, on the input's device.

Source: https://github.com/lucidrains/x-transformers/pull/84
"Arbitrary positions in absolute PE": `AbsolutePositionalEmbedding.forward(x, pos=None)` makes
`pos = torch.arange(x.shape[1], device=x.device)` when no positions are given (a user-supplied
`pos` may also be passed). A tensor created in `forward`, next to a GPU model, that is correct
because it takes `device=x.device`. Stand-in: the embedding plus a token embedding and one
einops-free attention layer, model and tokens on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class AbsolutePositionalEmbedding(nn.Module):
    def __init__(self, dim, max_seq_len, l2norm_embed=False):
        super().__init__()
        self.scale = dim ** -0.5 if not l2norm_embed else 1.0
        self.l2norm_embed = l2norm_embed
        self.emb = nn.Embedding(max_seq_len, dim)

    def forward(self, x, pos=None):
        if pos is None:
            pos = torch.arange(x.shape[1], device=x.device)
        pos_emb = self.emb(pos) * self.scale
        return F.normalize(pos_emb, dim=-1) if self.l2norm_embed else pos_emb

class TransformerWrapper(nn.Module):
    def __init__(self, num_tokens=100, max_seq_len=64, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.pos_emb = AbsolutePositionalEmbedding(dim, max_seq_len)
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_logits = nn.Linear(dim, num_tokens)

    def forward(self, x):
        h = self.token_emb(x) + self.pos_emb(x)
        b, n, d = h.shape
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in self.to_qkv(h).chunk(3, dim=-1))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.to_logits(h + out.transpose(1, 2).reshape(b, n, d))

model = TransformerWrapper().to("cuda:0")
x = torch.randint(0, 100, (2, 16)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
