"""Look-alike: GPTQ-for-LLaMa QuantLinear after "respect device index": the kernel output is allocated on `x.device`, so a decoder layer dispatched to cuda:1 stays on cuda:1.

Source: https://github.com/qwopqwop200/GPTQ-for-LLaMa/blob/fecfaa206690f361a00ddd480e8f476cf50193fe/quant.py
`QuantLinear.forward` takes the CUDA-kernel path for short inputs and allocates
`out = torch.zeros((x.shape[0], self.outfeatures), device=x.device, dtype=torch.float32)`; the kernel gets
`x.float()` and `self.scales.float()` and the result is cast back with `out.half()`. A layer split onto
the second GPU, fp16 activations into float32 kernel math: nothing crosses devices or dtypes. Stand-ins:
`quant_cuda.vecquant4matmul` emulated in torch (accumulates x @ W into `mul`), `QuantLinear` reduced to the
4-bit path, the output projection of a decoder layer on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class quant_cuda:
    """The compiled extension, emulated in torch: the kernel accumulates x @ W into `mul` (atomicAdd)."""
    @staticmethod
    def vecquant4matmul(vec, mat, mul, scales, zeros, g_idx):
        wf = torch.tensor(list(range(0, 32, 4)), dtype=torch.int32).unsqueeze(0).to(mat.device)
        z = torch.bitwise_right_shift(torch.unsqueeze(zeros, 2).expand(-1, -1, 8), wf.unsqueeze(0)).to(torch.int8)
        torch.bitwise_and(z, 15, out=z)
        z = (z + 1).reshape(scales.shape)
        w = torch.bitwise_right_shift(torch.unsqueeze(mat, 1).expand(-1, 8, -1), wf.unsqueeze(-1)).to(torch.int8)
        torch.bitwise_and(w, 15, out=w)
        w = w.reshape(w.shape[0] * w.shape[1], w.shape[2])
        weights = scales.index_select(0, g_idx.long()) * (w - z.index_select(0, g_idx.long())).float()
        mul.add_((vec @ weights).to(mul.device))

is_cuda = True

class QuantLinear(nn.Module):
    def __init__(self, bits, groupsize, infeatures, outfeatures, bias, kernel_switch_threshold=128, is_cuda=is_cuda):
        super().__init__()
        self.infeatures = infeatures
        self.outfeatures = outfeatures
        self.bits = bits
        self.groupsize = groupsize if groupsize != -1 else infeatures
        self.maxq = 2 ** self.bits - 1
        self.register_buffer('qweight', torch.zeros((infeatures // 32 * self.bits, outfeatures), dtype=torch.int32))
        self.register_buffer('qzeros', torch.zeros((math.ceil(infeatures / self.groupsize), outfeatures // 32 * self.bits), dtype=torch.int32))
        self.register_buffer('scales', torch.zeros((math.ceil(infeatures / self.groupsize), outfeatures), dtype=torch.float16))
        self.register_buffer('g_idx', torch.tensor([i // self.groupsize for i in range(infeatures)], dtype=torch.int32))
        if bias:
            self.register_buffer('bias', torch.zeros((outfeatures), dtype=torch.float16))
        else:
            self.bias = None
        self.kernel_switch_threshold = kernel_switch_threshold
        self.is_cuda = is_cuda

    def forward(self, x):
        out_shape = x.shape[:-1] + (self.outfeatures, )
        x = x.reshape(-1, x.shape[-1])
        if self.is_cuda is True and (self.kernel_switch_threshold is False or x.shape[0] < self.kernel_switch_threshold):
            out = torch.zeros((x.shape[0], self.outfeatures), device=x.device, dtype=torch.float32)
            quant_cuda.vecquant4matmul(x.float(), self.qweight, out, self.scales.float(), self.qzeros, self.g_idx)
            out = out.half()
        else:
            raise NotImplementedError("torch.matmul fallback for long prompts")
        out = out.reshape(out_shape)
        out = out + self.bias if self.bias is not None else out
        return out

class LlamaAttention(nn.Module):
    """Only the output projection is kept: q/k/v and the attention itself ran already."""
    def __init__(self, hidden_size=256):
        super().__init__()
        self.o_proj = QuantLinear(4, 128, hidden_size, hidden_size, False)

# layers 16-31 of the 4-bit LLaMA were dispatched to the second GPU
self_attn = LlamaAttention().half().to("cuda:1")
residual = torch.randn(1, 1, 256, dtype=torch.float16, device="cuda:1")
attn_output = torch.randn(1, 1, 256, dtype=torch.float16, device="cuda:1")   # one decode step
'''
CELL = '''
with torch.no_grad():
    hidden_states = residual + self_attn.o_proj(attn_output)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
