"""transformers NPU flash attention: the module-level causal mask is made once on the first NPU and reused on the others.

Source: https://github.com/huggingface/transformers/pull/38876
Qwen2.5-VL loaded with `device_map="auto"` and `attn_implementation="flash_attention_2"` on several
Ascend NPUs failed in generate: `integrations/npu_flash_attention.py` builds the global
`ATTN_MASK_NPU` on the device of the first layer that calls it and then passes the same tensor to
the fused op for layers placed on the next NPU. The PR moves the mask to `q.device` per call when the
devices differ. Stand-in: the helper caches its mask exactly that way; the fused op is an explicit
masked softmax attention; two decoder layers split over cuda:0 and cuda:1 stand in for npu:0/npu:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

ATTN_MASK_NPU = None

def get_attn_mask_npu(device):
    global ATTN_MASK_NPU
    if ATTN_MASK_NPU is None:
        ATTN_MASK_NPU = torch.triu(torch.ones([64, 64], device=device), diagonal=1).bool()
    return ATTN_MASK_NPU

def npu_flash_attn_func(q, k, v, causal=True):
    attn_mask_npu = get_attn_mask_npu(q.device)
    L = q.shape[-2]
    scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    scores = scores.masked_fill(attn_mask_npu[:L, :L], float("-inf"))
    return torch.softmax(scores, dim=-1) @ v

class DecoderLayer(nn.Module):
    def __init__(self, hidden=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.o_proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, l, h = x.shape
        q, k, v = self.qkv(x).view(b, l, 3, self.heads, h // self.heads).permute(2, 0, 3, 1, 4)
        out = npu_flash_attn_func(q, k, v, causal=True)
        return x + self.o_proj(out.transpose(1, 2).reshape(b, l, h))

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([DecoderLayer(), DecoderLayer()])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x.to(layer.o_proj.weight.device))     # accelerate's hooks move activations
        return x

model = Model()
model.layers[0].to("cuda:0")        # device_map="auto": npu:0
model.layers[1].to("cuda:1")        # npu:1
hidden_states = torch.randn(1, 12, 32).to("cuda:0")
'''
CELL = '''
out = model(hidden_states)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ATTN_MASK_NPU"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    return ATTN_MASK_NPU\n",
                  "    return ATTN_MASK_NPU.to(device)\n")
CLEAN = False
