"""YOLO-Master sparse MoE under AMP: `index_add_` of fp32 expert outputs into a low-precision accumulator.

Source: https://github.com/Tencent/YOLO-Master/pull/124
"fix(moe): AMP-safe index_add_ dtype alignment": AMP training crashed with "index_add_(): self (Half)
and source (Float) must have the same scalar type". Root cause given in the PR: under autocast,
GroupNorm promotes expert activations to fp32 while the sparse accumulator (`x.new_zeros`) keeps the
half dtype of the incoming features; the fix casts the expert output to the accumulator's dtype
before `index_add_`. Stand-in: a top-k routed MoE of conv experts on CPU autocast (bf16); the
experts' GroupNorm runs in fp32 explicitly, as CUDA autocast's fp32 policy for group_norm does.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class AutocastGroupNorm(nn.GroupNorm):
    def forward(self, x):
        # CUDA autocast runs group_norm in float32 (stand-in: explicit)
        return F.group_norm(x.float(), self.num_groups, self.weight, self.bias, self.eps)

class ConvExpert(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.norm = AutocastGroupNorm(4, c)

    def forward(self, x):
        return F.silu(self.norm(self.conv(x)))

class GatedSparseMoE(nn.Module):
    def __init__(self, c, num_experts=4, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.router = nn.Linear(c, num_experts)
        self.experts = nn.ModuleList([ConvExpert(c) for _ in range(num_experts)])

    def forward(self, x):
        logits = self.router(x.mean(dim=(2, 3)))
        weights, idx = logits.softmax(-1).topk(self.top_k, dim=-1)
        out = x.new_zeros(x.shape)
        for e, expert in enumerate(self.experts):
            token_idx, slot = (idx == e).nonzero(as_tuple=True)
            if token_idx.numel() == 0:
                continue
            y = expert(x[token_idx]) * weights[token_idx, slot].view(-1, 1, 1, 1)
            out.index_add_(0, token_idx, y)
        return out

backbone = nn.Conv2d(3, 16, 3, padding=1)
moe = GatedSparseMoE(16)
images = torch.randn(4, 3, 8, 8)
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    feats = backbone(images)
    out = moe(feats)
'''
EXPECT_ERROR = "must have the same scalar type"
CULPRITS = ["moe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("out.index_add_(0, token_idx, y)", "out.index_add_(0, token_idx, y.to(out.dtype))")
CLEAN = False
