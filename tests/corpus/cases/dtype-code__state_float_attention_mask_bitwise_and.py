"""State transition model with `mask_attn=True`: the attention mask is built as float, then `&`-ed with a bool mask.

Source: https://github.com/ArcInstitute/state/pull/213
"Fixed RuntimeError: \\"bitwise_and_cuda\\" not implemented for 'Float' by changing attention mask
dtype from float to bool": the model built its per-set attention mask with `torch.ones(...)` (float)
and combined it with the boolean padding mask by `&`. The PR creates the mask as bool. Stand-in: the
set transformer reduced to the mask construction and one attention layer. Run on the CPU (a dtype
bug; the CPU kernel says "bitwise_and_cpu").
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class StateTransitionModel(nn.Module):
    def __init__(self, dim=32, n_heads=4, mask_attn=True):
        super().__init__()
        self.mask_attn = mask_attn
        self.n_heads = n_heads
        self.encoder = nn.Linear(dim, dim)
        self.attn = nn.MultiheadAttention(dim, n_heads, batch_first=True)
        self.head = nn.Linear(dim, dim)

    def build_attn_mask(self, padding_mask):
        B, S = padding_mask.shape
        attn_mask = torch.ones(B, S, S)
        attn_mask = attn_mask & padding_mask.unsqueeze(1)
        return ~attn_mask.repeat_interleave(self.n_heads, dim=0)

    def forward(self, cells, padding_mask):
        h = self.encoder(cells)
        mask = self.build_attn_mask(padding_mask) if self.mask_attn else None
        h, _ = self.attn(h, h, h, attn_mask=mask)
        return self.head(h)

model = StateTransitionModel()
cells = torch.randn(2, 8, 32)                        # a batch of cell sets
padding_mask = torch.ones(2, 8, dtype=torch.bool)    # True = real cell
padding_mask[1, 6:] = False
'''
CELL = '''
pred = model(cells, padding_mask)
'''
EXPECT_ERROR = "not implemented for 'Float'"
CULPRITS = ["attn_mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("attn_mask = torch.ones(B, S, S)", "attn_mask = torch.ones(B, S, S, dtype=torch.bool)")
CLEAN = False
