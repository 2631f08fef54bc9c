"""Look-alike: a 4-bit Linear with integer packed weights takes a float32 input and casts it to its compute dtype.

Source: https://github.com/bitsandbytes-foundation/bitsandbytes/blob/main/bitsandbytes/nn/modules.py
`Linear4bit.forward` records `inp_dtype = x.dtype`, casts `x = x.to(self.compute_dtype)` and the bias
likewise, runs `matmul_4bit` against the quantized weight (uint8 storage plus a float quant state),
and returns `out.to(inp_dtype)`. A float32 activation (e.g. out of an fp32-upcast norm) meeting an
integer-stored bf16-compute weight is handled inside the layer. Stand-in: the layer with int8
storage + absmax dequantization (instead of the NF4 kernel); run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Linear4bit(nn.Module):
    def __init__(self, in_features, out_features, compute_dtype=torch.bfloat16):
        super().__init__()
        w = torch.randn(out_features, in_features)
        absmax = w.abs().amax(1, keepdim=True)
        self.register_buffer("weight_q", (w / absmax * 7).round().to(torch.int8))
        self.register_buffer("absmax", absmax)
        self.bias = nn.Parameter(torch.zeros(out_features))
        self.compute_dtype = compute_dtype

    def dequantize(self):
        return (self.weight_q.float() * self.absmax / 7).to(self.compute_dtype)

    def forward(self, x):
        inp_dtype = x.dtype
        if self.compute_dtype is not None:
            x = x.to(self.compute_dtype)
        bias = None if self.bias is None else self.bias.to(self.compute_dtype)
        out = F.linear(x, self.dequantize(), bias)      # bnb.matmul_4bit(x, self.weight.t(), bias, quant_state)
        return out.to(inp_dtype)

class MLP(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.norm = nn.LayerNorm(dim)              # upcast to fp32 by prepare_model_for_kbit_training
        self.up_proj = Linear4bit(dim, 4 * dim)
        self.down_proj = Linear4bit(4 * dim, dim)

    def forward(self, x):
        return x + self.down_proj(F.silu(self.up_proj(self.norm(x))))

mlp = MLP()
hidden_states = torch.randn(2, 6, 32)
'''
CELL = '''
out = mlp(hidden_states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
