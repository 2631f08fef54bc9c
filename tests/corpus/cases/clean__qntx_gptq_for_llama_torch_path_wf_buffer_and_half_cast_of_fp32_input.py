"""Look-alike: GPTQ-for-LLaMa `QuantLinear` on its torch path: `wf` is a non-persistent buffer that follows `.to(device)`, and fp32 activations are cast with `x.half()` before the matmul with the fp16 dequantized weight.

Source: https://github.com/qwopqwop200/GPTQ-for-LLaMa/blob/fecfaa206690f361a00ddd480e8f476cf50193fe/quant.py
`__init__` registers `self.register_buffer('wf', torch.tensor(list(range(0,32,self.bits)), dtype=torch.int32).unsqueeze(0), persistent=False)`;
for long inputs (`x.shape[0] >= kernel_switch_threshold`) `forward` unpacks `qzeros`/`qweight` with
`torch.bitwise_right_shift(..., self.wf...)`, builds `weights = self.scales[self.g_idx] * (weight - zeros[self.g_idx])`
(fp16) and runs `torch.matmul(x.half(), weights)`. An fp32 prompt into the moved fp16 layer is fine.
Here the device is `meta` (SIM); `QuantLinear` reduced to the 4-bit path, one q_proj.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

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
        # is performed by unpacking the weights and using torch.matmul
        self.register_buffer('wf', torch.tensor(list(range(0, 32, self.bits)), dtype=torch.int32).unsqueeze(0), persistent=False)
        self.kernel_switch_threshold = kernel_switch_threshold
        self.is_cuda = is_cuda

    def forward(self, x):
        out_shape = x.shape[:-1] + (self.outfeatures, )
        x = x.reshape(-1, x.shape[-1])
        if self.is_cuda is True and (self.kernel_switch_threshold is False or x.shape[0] < self.kernel_switch_threshold):
            raise NotImplementedError("quant_cuda kernel (short inputs)")
        else:
            zeros = torch.bitwise_right_shift(torch.unsqueeze(self.qzeros, 2).expand(-1, -1, 32 // self.bits), self.wf.unsqueeze(0)).to(torch.int16 if self.bits == 8 else torch.int8)
            torch.bitwise_and(zeros, (2 ** self.bits) - 1, out=zeros)
            zeros = zeros + 1
            zeros = zeros.reshape(self.scales.shape)
            weight = torch.bitwise_right_shift(torch.unsqueeze(self.qweight, 1).expand(-1, 32 // self.bits, -1), self.wf.unsqueeze(-1)).to(torch.int16 if self.bits == 8 else torch.int8)
            torch.bitwise_and(weight, (2 ** self.bits) - 1, out=weight)
            weight = weight.reshape(weight.shape[0] * weight.shape[1], weight.shape[2])
            weights = (self.scales[self.g_idx] * (weight - zeros[self.g_idx]))
            out = torch.matmul(x.half(), weights)
        out = out.reshape(out_shape)
        out = out + self.bias if self.bias is not None else out
        return out

dev = torch.device("meta")
q_proj = QuantLinear(4, 128, 256, 256, True).to(dev)
hidden_states = torch.randn(1, 512, 256, device=dev)      # fp32 prompt, 512 tokens: torch path
'''
CELL = '''
with torch.no_grad():
    query_states = q_proj(hidden_states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
