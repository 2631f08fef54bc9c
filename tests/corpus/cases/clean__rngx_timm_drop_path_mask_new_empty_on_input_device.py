"""Look-alike: timm `drop_path` draws its per-sample Bernoulli mask with `x.new_empty(...).bernoulli_()` on the input's device.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/layers/drop.py
timm's stochastic depth: `random_tensor = x.new_empty(shape).bernoulli_(keep_prob)`, scaled by
`keep_prob`, multiplied into the residual branch. The mask is random, created inside forward with no
`device=` argument, yet `new_empty` follows `x` onto cuda:0 (and its dtype). Nothing to report.
Stand-in: a residual MLP block with `DropPath` as in timm's ViT blocks.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def drop_path(x, drop_prob: float = 0., training: bool = False, scale_by_keep: bool = True):
    if drop_prob == 0. or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor

class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0., scale_by_keep: bool = True):
        super().__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)

class Block(nn.Module):
    def __init__(self, dim, drop_path=0.1):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.drop_path = DropPath(drop_path)

    def forward(self, x):
        return x + self.drop_path(self.mlp(self.norm(x)))

block = Block(64, drop_path=0.2).to("cuda:0")
block.train()
tokens = torch.randn(8, 197, 64, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    out = block(tokens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
