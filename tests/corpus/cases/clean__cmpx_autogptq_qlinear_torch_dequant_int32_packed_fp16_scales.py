"""Look-alike: AutoGPTQ's `QuantLinear` PyTorch fallback: int32-packed 4-bit weights and zeros, float16 scales, an int32 shift buffer, float16 activations -- unpacked and dequantized inside `forward`.

Source: https://github.com/AutoGPTQ/AutoGPTQ/blob/main/auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py
Without the CUDA kernel the layer rebuilds its weight in `forward`: `zeros = torch.bitwise_right_shift(
torch.unsqueeze(self.qzeros, 2).expand(-1, -1, 32 // self.bits), self.wf.unsqueeze(0)).to(torch.int8)`,
the same for `qweight`, then `weight = scales * (weight - zeros)` and `out = torch.matmul(x, weight)`:
integer buffers (`qweight`, `qzeros`, `g_idx`, `wf`) next to half scales and half activations by
design; the int8 nibbles are promoted to half by the multiplication with the scales.
Stand-in: one 4-bit, group-size-32 layer with random packed buffers, float16 on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class QuantLinear(nn.Module):
    def __init__(self, bits, group_size, infeatures, outfeatures):
        super().__init__()
        self.bits, self.group_size = bits, group_size
        self.infeatures, self.outfeatures = infeatures, outfeatures
        self.maxq = 2 ** bits - 1
        self.register_buffer("qweight", torch.randint(0, 2**31 - 1, (infeatures // 32 * bits, outfeatures), dtype=torch.int32))
        self.register_buffer("qzeros", torch.randint(0, 2**31 - 1, (infeatures // group_size, outfeatures // 32 * bits), dtype=torch.int32))
        self.register_buffer("scales", (torch.rand(infeatures // group_size, outfeatures) * 0.01).to(torch.float16))
        self.register_buffer("g_idx", torch.tensor([i // group_size for i in range(infeatures)], dtype=torch.int32))
        self.register_buffer("bias", torch.zeros(outfeatures, dtype=torch.float16))
        self.register_buffer("wf", torch.tensor(list(range(0, 32, self.bits)), dtype=torch.int32).unsqueeze(0))

    def forward(self, x):
        out_shape = x.shape[:-1] + (self.outfeatures,)
        x = x.reshape(-1, x.shape[-1])
        zeros = torch.bitwise_right_shift(torch.unsqueeze(self.qzeros, 2).expand(-1, -1, 32 // self.bits),
                                          self.wf.unsqueeze(0)).to(torch.int8)
        zeros = torch.bitwise_and(zeros + 1, self.maxq)
        zeros = zeros.reshape(-1, 1, zeros.shape[1] * zeros.shape[2])
        scales = self.scales.reshape(-1, 1, self.scales.shape[-1])
        weight = torch.bitwise_right_shift(torch.unsqueeze(self.qweight, 1).expand(-1, 32 // self.bits, -1),
                                           self.wf.unsqueeze(-1)).to(torch.int8)
        weight = torch.bitwise_and(weight, self.maxq)
        weight = weight.reshape(-1, self.group_size, weight.shape[2])
        weight = scales * (weight - zeros)
        weight = weight.reshape(weight.shape[0] * weight.shape[1], weight.shape[2])
        out = torch.matmul(x, weight)
        out = out.reshape(out_shape)
        return out + self.bias

q_proj = QuantLinear(bits=4, group_size=32, infeatures=64, outfeatures=64)
hidden_states = torch.randn(2, 3, 64, dtype=torch.float16)
'''
CELL = '''
with torch.no_grad():
    out = q_proj(hidden_states)
print(out.dtype, q_proj.qweight.dtype, q_proj.scales.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
