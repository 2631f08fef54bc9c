"""Look-alike: `nn.MultiheadAttention` with a float32 `attn_mask` inside `torch.autocast("cpu")` (bf16 queries).

Source: https://github.com/pytorch/pytorch/issues/99012
"Float32 attention mask not working with torch.autocast('cpu')": in PyTorch 2.0 this minimal
example raised "Expected attn_mask dtype to be bool or to match query dtype, but got
attn_mask.dtype: float and query.dtype: c10::BFloat16". Current PyTorch handles the float mask
under CPU autocast, so the same code runs: a float32 mask next to bfloat16 projections is not a
bug to report.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch

b = 1
n = 16
d = 64

query = torch.randn(n, b, d)
key = torch.randn(n, b, d)
value = torch.randn(n, b, d)
attn_mask = torch.zeros(n, n)

attention = torch.nn.MultiheadAttention(d, 8)
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu"):
    output = attention(query, key, value, attn_mask=attn_mask, need_weights=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
