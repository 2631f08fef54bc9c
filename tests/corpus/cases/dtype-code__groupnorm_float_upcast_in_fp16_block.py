"""A ResNet block upcasts its hidden states with .float() before a GroupNorm whose weights are fp16.

Source: https://github.com/huggingface/diffusers/pull/495
"this `.float()` cast ... break[s] in `fp16` mode (because the model is in fp16, while the tensor
is now in `float`)": the block did `self.norm2(hidden_states.float()).type(hidden_states.dtype)`
to normalise in float32, but with the whole model in float16 the norm's weight is half. The PR
removed the hard-coded cast. On CUDA the norm reports the float/half mix; this CPU build says
"mixed dtype (CPU): expect parameter to have scalar type of Float".
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class ResnetBlock(nn.Module):
    def __init__(self, ch=8, groups=4):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.norm2 = nn.GroupNorm(groups, ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        h = self.conv1(torch.nn.functional.silu(self.norm1(x)))
        h = self.norm2(h.float()).type(h.dtype)
        h = self.conv2(torch.nn.functional.silu(h))
        return x + h

resnet = ResnetBlock().to(torch.float16)
hidden_states = torch.randn(1, 8, 8, 8, dtype=torch.float16)
'''
CELL = '''
with torch.no_grad():
    out = resnet(hidden_states)
'''
EXPECT_ERROR = "mixed dtype (CPU): expect parameter to have scalar type of Float"
CULPRITS = ["resnet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("h = self.norm2(h.float()).type(h.dtype)", "h = self.norm2(h)")
CLEAN = False
