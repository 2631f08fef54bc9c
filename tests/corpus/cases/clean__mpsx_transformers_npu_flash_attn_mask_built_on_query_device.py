"""transformers NPU flash attention: the causal mask is built with `device=q.device` inside the helper.

Source: https://github.com/huggingface/transformers/pull/37698
On Ascend NPU, `npu_flash_attn_func` / `npu_flash_attn_varlen_func` built their causal mask with
`torch.ones(...)` on the CPU and copied it over on every call; the PR defines it on the NPU directly,
`torch.triu(torch.ones([2048, 2048], device=q.device), diagonal=1).bool()`. Look-alike: a module-level
helper creating a tensor inside an attention call, next to CPU position ids kept for the varlen
bookkeeping; both are correct. Stand-in: the helper with an explicit masked softmax for the fused
kernel, one attention block; cuda:0 stands in for npu:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def npu_flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False):
    if not causal:
        head_num = q.shape[1]
        scores = q @ k.transpose(-1, -2) * (softmax_scale or q.shape[-1] ** -0.5)
        return torch.softmax(scores, -1) @ v
    attn_mask_npu = torch.triu(torch.ones([64, 64], device=q.device), diagonal=1).bool()
    L = q.shape[-2]
    scores = q @ k.transpose(-1, -2) * (softmax_scale or q.shape[-1] ** -0.5)
    scores = scores.masked_fill(attn_mask_npu[:L, :L], float("-inf"))
    return torch.softmax(scores, -1) @ v

class Attention(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.o_proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, l, h = x.shape
        q, k, v = self.qkv(x).view(b, l, 3, self.heads, h // self.heads).permute(2, 0, 3, 1, 4)
        out = npu_flash_attn_func(q, k, v, causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(b, l, h))

device = torch.device("cuda:0")      # "npu:0"
attn = Attention().to(device)
hidden_states = torch.randn(2, 16, 32).to(device)
seq_lens = [16, 16]                  # host-side lengths, as the varlen path keeps them
'''
CELL = '''
out = attn(hidden_states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
