"""Look-alike: alpaca_lora_4bit after the fix, fp32 hidden states into a half 4-bit layer: `matmul4bit` casts `x` to `scales.dtype` before the fp16 reconstruction matmul.

Source: https://github.com/johnsmith0031/alpaca_lora_4bit/blob/1719bd0ce3771c373d4100461a4738d1ac47bae8/matmul_utils_4bit.py
`matmul4bit` calls `_matmul4bit_v1_recons(x.to(scales.dtype), qweight, scales, zeros)` on the long-input
path: the weight is rebuilt into an fp16 buffer (`get_buffer(..., dtype=scales.dtype)`) and the fp32
activation is cast to it inside the library, so fp32 `hidden_states` next to a `model_to_half` model is
fine. Stand-ins as in the library: `quant_cuda.vecquant4recons_v1` is a torch unpack; the buffer cache,
the auto-switch threshold and `Autograd4bitQuantLinear` are reduced copies.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

# ---- matmul_utils_4bit.py (reduced) ----
buffer_mat_dic = {}
use_new = True
auto_switch = True
auto_switch_thd = 8

def get_buffer(shape_of_qweight, dtype=torch.float16, device='cuda'):
    if shape_of_qweight not in buffer_mat_dic.keys():
        buffer_mat_dic[shape_of_qweight] = torch.zeros((shape_of_qweight[0] * 8, shape_of_qweight[1]), dtype=dtype, device=device)
    else:
        if buffer_mat_dic[shape_of_qweight].device != device:
            buffer_mat_dic[shape_of_qweight] = buffer_mat_dic[shape_of_qweight].to(device)
        if buffer_mat_dic[shape_of_qweight].dtype != dtype:
            buffer_mat_dic[shape_of_qweight] = buffer_mat_dic[shape_of_qweight].to(dtype=dtype)
    return buffer_mat_dic[shape_of_qweight]

def vecquant4recons_v1(qweight, buffer, scales, zeros):
    """quant_cuda.vecquant4recons_v1, in torch: unpack 8 nibbles per int32 row, scale, shift."""
    shifts = torch.arange(0, 32, 4, dtype=torch.int32, device=qweight.device)
    w = ((qweight[:, None, :] >> shifts[None, :, None]) & 0xF).reshape(buffer.shape)
    buffer.copy_(w.to(buffer.dtype) * scales.t() - zeros.t())

def _matmul4bit_v1(x, qweight, scales, zeros):
    raise NotImplementedError("quant_cuda.vecquant4matmul_faster (short inputs only)")

def _matmul4bit_v1_recons(x, qweight, scales, zeros, transpose=False):
    if not transpose:
        assert qweight.shape[0] * 8 == x.shape[-1]
    else:
        assert qweight.shape[1] == x.shape[-1]
    buffer = get_buffer(qweight.shape, dtype=scales.dtype, device=qweight.device)
    vecquant4recons_v1(qweight, buffer, scales, zeros)
    if not transpose:
        output = torch.matmul(x, buffer)
    else:
        output = torch.matmul(x, buffer.T)
    return output

def matmul4bit(x, qweight, scales, zeros, groupsize=-1):
    if use_new and auto_switch and np.prod(x.shape[:-1]) > auto_switch_thd:
        output = _matmul4bit_v1_recons(x.to(scales.dtype), qweight, scales, zeros)
    else:
        output = _matmul4bit_v1(x, qweight, scales.float(), zeros.float())
    return output

# ---- autograd_4bit.py (reduced) ----
class Autograd4bitQuantLinear(nn.Module):
    def __init__(self, infeatures, outfeatures, groupsize=-1):
        super().__init__()
        bits = 4
        self.in_features = infeatures
        self.out_features = outfeatures
        self.groupsize = groupsize
        self.register_buffer('zeros', torch.rand((outfeatures, 1)) / 10)
        self.register_buffer('scales', torch.rand((outfeatures, 1)) / 10)
        self.register_buffer('bias', torch.zeros(outfeatures))
        self.register_buffer('qweight', torch.randint(-2**31, 2**31 - 1, (infeatures // 256 * (bits * 8), outfeatures), dtype=torch.int))

    def forward(self, x):
        out = matmul4bit(x, self.qweight, self.scales, self.zeros, self.groupsize)
        out += self.bias
        return out

def model_to_half(model):
    model.half()
    for n, m in model.named_modules():
        if isinstance(m, Autograd4bitQuantLinear):
            if m.groupsize == -1:
                m.zeros = m.zeros.half()
            m.scales = m.scales.half()
            m.bias = m.bias.half()
    print('Converted as Half.')

class Attention(nn.Module):
    def __init__(self, hidden=256):
        super().__init__()
        self.q_proj = Autograd4bitQuantLinear(hidden, hidden)
        self.v_proj = Autograd4bitQuantLinear(hidden, hidden)

model = nn.ModuleDict({"self_attn": Attention()})
model_to_half(model)
hidden_states = torch.randn(1, 16, 256)      # fp32 activations reaching the 4-bit layer (16 tokens > auto_switch_thd)
'''
CELL = '''
with torch.no_grad():
    query_states = model.self_attn.q_proj(hidden_states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
