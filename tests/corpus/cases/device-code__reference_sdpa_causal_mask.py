"""A reference attention function builds its causal mask with torch.ones(L, S).tril() on the CPU.

Source: https://github.com/InfiniTensor/llaisys/pull/11
`temp_mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=S-L)` in the test's reference
scaled-dot-product attention is created on the default device: fine on the CPU, and on cuda
"expected self and mask to be on the same device, but got mask on cpu and self on cuda:0".
Under FakeTensorMode the same mix raises the generic same-device error.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch

def reference_sdpa(query, key, value, is_causal=True):
    L, S = query.shape[-2], key.shape[-2]
    attn_bias = torch.zeros(L, S, dtype=query.dtype, device=query.device)
    if is_causal:
        temp_mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=S - L)
        attn_bias.masked_fill_(temp_mask.logical_not(), float("-inf"))
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1]) + attn_bias
    return torch.softmax(scores, dim=-1) @ value

q = torch.randn(1, 2, 6, 8, device="cuda:0")
k = torch.randn(1, 2, 6, 8, device="cuda:0")
v = torch.randn(1, 2, 6, 8, device="cuda:0")
'''
CELL = '''
out = reference_sdpa(q, k, v)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["reference_sdpa"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.ones(L, S, dtype=torch.bool)",
    "torch.ones(L, S, dtype=torch.bool, device=query.device)",
)
CLEAN = False
