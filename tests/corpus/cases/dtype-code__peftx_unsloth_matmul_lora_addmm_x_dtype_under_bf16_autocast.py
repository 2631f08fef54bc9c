"""Unsloth `matmul_lora` under bf16 autocast with float32 activations: the in-place `addmm_` mixes a bf16 `out` and fp32 LoRA `B`.

Source: https://github.com/unslothai/unsloth/pull/5766
"Under torch.autocast, torch.matmul outputs are in the autocast dtype (bfloat16/float16), but the
subsequent in-place addmm_ calls in matmul_lora, fast_linear_forward, and the backward methods ...
used dtype = X.dtype, which returns float32 when the input activation is a float32 tensor. This
caused addmm_ to crash with a dtype mismatch." The proposed fix computes the compute dtype from the
autocast state (`torch.is_autocast_enabled(device_type)` / `torch.get_autocast_dtype(device_type)`)
instead of `X.dtype`.
Stand-ins (CPU autocast in bfloat16; dtype bug): unsloth's `matmul_lora` (16-bit base weight, no
quant state), a peft LoRA `Linear` routed through it, and a small fp32 residual-stream block.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def fast_dequantize(W, quant_state=None, use_global_buffer=False):
    if quant_state is None:
        return W                                   # 16-bit base weight: nothing to dequantize
    raise NotImplementedError

def matmul_lora(X, W, W_quant, A, B, s, out=None):
    dtype = X.dtype
    W = fast_dequantize(W.t(), W_quant, use_global_buffer=True)
    if X.dim() == 3:
        batch, seq_len, d = X.shape
        X = X.view(-1, X.shape[-1])
        reshape = True
    else:
        reshape = False
    out = torch.matmul(X, W, out=out)
    if W_quant is not None:
        del W
    if A is not None:
        A, B = A.t(), B.t()
        XA = torch.matmul(X, A.to(dtype))
        out.addmm_(XA, B.to(dtype), alpha=s)
    return out.view(batch, seq_len, -1) if reshape else out

class Linear(nn.Module):
    """peft LoRA Linear whose forward unsloth routes through matmul_lora."""
    def __init__(self, base_layer, r=8, lora_alpha=16):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A = nn.Linear(base_layer.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base_layer.out_features, bias=False)
        nn.init.normal_(self.lora_B.weight, std=0.02)
        self.scaling = lora_alpha / r

    def forward(self, X):
        return matmul_lora(X, self.base_layer.weight, None, self.lora_A.weight, self.lora_B.weight, self.scaling)

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)                 # fp32 residual stream / norm output
        self.o_proj = Linear(nn.Linear(d, d, bias=False).to(torch.bfloat16))

    def forward(self, h):
        return h + self.o_proj(self.norm(h))

model = Block(64)
hidden_states = torch.randn(2, 8, 64)               # float32 activations
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):   # Trainer(bf16=True)
    out = model(hidden_states)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["matmul_lora"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    dtype = X.dtype\n    W = fast_dequantize(",
    "    dtype = torch.get_autocast_dtype(\"cpu\") if torch.is_autocast_enabled(\"cpu\") else X.dtype\n    W = fast_dequantize(",
)
CLEAN = False
