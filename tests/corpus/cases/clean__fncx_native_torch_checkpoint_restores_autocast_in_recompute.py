"""Look-alike: a diffusion transformer block checkpointed with `torch.utils.checkpoint.checkpoint`, under autocast: the recompute runs under the saved autocast state.

Source: https://github.com/pytorch/pytorch/blob/main/torch/utils/checkpoint.py
The reentrant `CheckpointFunction.forward` records `ctx.device_autocast_kwargs, ctx.cpu_autocast_kwargs
= _get_autocast_kwargs(...)` and its `backward` re-runs the function inside
`torch.amp.autocast("cpu", **ctx.cpu_autocast_kwargs)` (and the device autocast). CompVis
stable-diffusion PR #532 ("Use native torch.util.checkpoint ... fixes stable diffusion to train in
mixed-precision") swaps ldm's own CheckpointFunction for it. Here the block input is bfloat16 from an
autocast Linear and the weights stay fp32, yet backward recomputes under autocast: nothing to report.
Stand-in: the ldm block reduced to LayerNorm + Linear; CPU autocast (bfloat16) stands in for CUDA fp16.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.utils.checkpoint

def checkpoint(func, inputs, params, flag):
    if flag:
        return torch.utils.checkpoint.checkpoint(func, *inputs, use_reentrant=True)
    else:
        return func(*inputs)

class BasicTransformerBlock(nn.Module):
    def __init__(self, dim, checkpoint=True):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn1 = nn.Linear(dim, dim)
        self.checkpoint = checkpoint

    def forward(self, x, context=None):
        return checkpoint(self._forward, (x,), self.parameters(), self.checkpoint)

    def _forward(self, x, context=None):
        x = self.attn1(self.norm1(x)) + x
        return x

class TinyUNet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj_in = nn.Linear(dim, dim)
        self.block = BasicTransformerBlock(dim, checkpoint=True)
        self.proj_out = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj_out(self.block(self.proj_in(x)))

model = TinyUNet()
x = torch.randn(4, 16)
target = torch.randn(4, 16)
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    out = model(x)
    loss = (out.float() - target).pow(2).mean()
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
