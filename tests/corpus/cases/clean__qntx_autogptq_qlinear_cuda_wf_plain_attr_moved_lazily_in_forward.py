"""Look-alike: AutoGPTQ's `QuantLinear` keeps its unpacking shifts `self.wf` as a plain tensor attribute that `model.to(device)` leaves on the CPU, and moves it to `qzeros.device` itself in forward.

Source: https://github.com/AutoGPTQ/AutoGPTQ/blob/514d3ab46f2b5b52fb891f5e190aa4c63ee7f7b4/auto_gptq/nn_modules/qlinear/qlinear_cuda.py
`__init__` sets `self.wf = torch.tensor(list(range(0, 32, self.bits)), dtype=torch.int32).unsqueeze(0)`
(not a buffer), so after the quantized model is moved `wf` is still a CPU tensor next to device
`qweight`/`qzeros`. On the torch path (no CUDA extension, or long inputs) `forward` starts with
`if self.wf.device != self.qzeros.device: self.wf = self.wf.to(self.qzeros.device)`, unpacks, gathers
`self.scales[self.g_idx.long()]`, and returns `out.to(x_dtype)`. Nothing to fix. Here the device is
`meta` (SIM); `QuantLinear` is reduced to the 4-bit torch path, inside a two-projection MLP.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

_autogptq_cuda_available = False      # no compiled extension: the torch dequantize + matmul path

class QuantLinear(nn.Module):
    QUANT_TYPE = "cuda"

    def __init__(self, bits, group_size, infeatures, outfeatures, bias, kernel_switch_threshold=128,
                 trainable=False, weight_dtype=torch.float16):
        super().__init__()
        self.infeatures = infeatures
        self.outfeatures = outfeatures
        self.bits = bits
        self.group_size = group_size if group_size != -1 else infeatures
        self.maxq = 2 ** self.bits - 1
        self.register_buffer('qweight', torch.zeros((infeatures // 32 * self.bits, outfeatures), dtype=torch.int32))
        self.register_buffer('qzeros', torch.zeros((math.ceil(infeatures / self.group_size), outfeatures // 32 * self.bits), dtype=torch.int32))
        self.register_buffer('scales', torch.zeros((math.ceil(infeatures / self.group_size), outfeatures), dtype=weight_dtype))
        self.register_buffer('g_idx', torch.tensor([i // self.group_size for i in range(infeatures)], dtype=torch.int32))
        if bias:
            self.register_buffer('bias', torch.zeros((outfeatures), dtype=weight_dtype))
        else:
            self.bias = None
        # is performed by unpacking the weights and using torch.matmul
        self.wf = torch.tensor(list(range(0, 32, self.bits)), dtype=torch.int32).unsqueeze(0)
        self.kernel_switch_threshold = kernel_switch_threshold
        self.autogptq_cuda_available = _autogptq_cuda_available
        self.trainable = trainable

    def forward(self, x: torch.Tensor):
        out_shape = x.shape[:-1] + (self.outfeatures,)
        x = x.reshape(-1, x.shape[-1])
        x_dtype = x.dtype
        if x.device.type == "cuda" and self.autogptq_cuda_available and (
            self.kernel_switch_threshold == 0 or x.shape[0] < self.kernel_switch_threshold
        ):
            raise NotImplementedError("autogptq_cuda kernel")
        else:
            if self.wf.device != self.qzeros.device:
                self.wf = self.wf.to(self.qzeros.device)
            zeros = torch.bitwise_right_shift(
                torch.unsqueeze(self.qzeros, 2).expand(-1, -1, 32 // self.bits),
                self.wf.unsqueeze(0)
            ).to(torch.int16 if self.bits == 8 else torch.int8)
            zeros = torch.bitwise_and(zeros, (2 ** self.bits) - 1)
            zeros = zeros + 1
            zeros = zeros.reshape(self.scales.shape)
            weight = torch.bitwise_right_shift(
                torch.unsqueeze(self.qweight, 1).expand(-1, 32 // self.bits, -1),
                self.wf.unsqueeze(-1)
            ).to(torch.int16 if self.bits == 8 else torch.int8)
            weight = torch.bitwise_and(weight, (2 ** self.bits) - 1)
            weight = weight.reshape(weight.shape[0] * weight.shape[1], weight.shape[2])
            weights = (self.scales[self.g_idx.long()] * (weight - zeros[self.g_idx.long()]))
            out = torch.matmul(x, weights)
        out = out.to(x_dtype)
        out = out.reshape(out_shape)
        out = out + self.bias if self.bias is not None else out
        return out

class LlamaMLP(nn.Module):
    def __init__(self, hidden_size=256, intermediate_size=512):
        super().__init__()
        self.gate_proj = QuantLinear(4, 128, hidden_size, intermediate_size, False)
        self.up_proj = QuantLinear(4, 128, hidden_size, intermediate_size, False)
        self.down_proj = QuantLinear(4, 128, intermediate_size, hidden_size, False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

device = torch.device("meta")
mlp = LlamaMLP().to(device)                  # buffers move; every `wf` stays on the CPU
hidden_states = torch.randn(1, 300, 256, dtype=torch.float16, device=device)   # a long prompt
'''
CELL = '''
with torch.no_grad():
    out = mlp(hidden_states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
