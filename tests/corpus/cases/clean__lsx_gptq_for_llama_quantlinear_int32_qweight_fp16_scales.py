"""GPTQ-for-LLaMa `QuantLinear`: int32 packed weights, int32 zeros and `g_idx`, float16 scales and bias, dequantized to the input's dtype in forward.

Source: https://github.com/qwopqwop200/GPTQ-for-LLaMa/blob/cuda/quant.py
A 4-bit layer registers `qweight` (int32, 8 nibbles per value), `qzeros` (int32), `scales` (float16),
`g_idx` (int32) and `bias` (float16) as buffers; the forward unpacks them and computes in the
activations' dtype. Look-alike: integer and half buffers side by side in one module, by design, that runs.
Stand-in: a torch-only unpack in place of the CUDA kernel, a two-layer model in float16; cpu, dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class QuantLinear(nn.Module):
    def __init__(self, bits, groupsize, infeatures, outfeatures):
        super().__init__()
        self.bits, self.groupsize = bits, groupsize
        self.infeatures, self.outfeatures = infeatures, outfeatures
        w = torch.randint(0, 16, (infeatures, outfeatures), dtype=torch.int32)
        packed = torch.zeros(infeatures // 8, outfeatures, dtype=torch.int32)
        for j in range(8):
            packed |= w[j::8] << (4 * j)
        self.register_buffer("qweight", packed)
        self.register_buffer("qzeros", torch.full((infeatures // groupsize, outfeatures // 8), 0x88888888 - 2**32, dtype=torch.int32))
        self.register_buffer("scales", (torch.rand(infeatures // groupsize, outfeatures) * 0.01).half())
        self.register_buffer("g_idx", torch.arange(infeatures, dtype=torch.int32) // groupsize)
        self.register_buffer("bias", torch.zeros(outfeatures, dtype=torch.float16))

    def forward(self, x):
        shifts = torch.arange(0, 32, 4, dtype=torch.int32)
        w = (self.qweight.unsqueeze(1) >> shifts[None, :, None]) & 0xF
        w = w.reshape(self.infeatures, self.outfeatures)
        z = ((self.qzeros.unsqueeze(2) >> shifts) & 0xF).reshape(self.qzeros.shape[0], -1) + 1
        g = self.g_idx.long()
        weight = (self.scales[g] * (w - z[g]).to(self.scales.dtype)).to(x.dtype)
        return x @ weight + self.bias.to(x.dtype)

class Block(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.up = QuantLinear(4, 32, d, 2 * d)
        self.down = QuantLinear(4, 32, 2 * d, d)
        self.norm = nn.LayerNorm(d).half()

    def forward(self, x):
        return x + self.down(torch.relu(self.up(self.norm(x))))

model = nn.Sequential(Block(), Block())
x = torch.randn(2, 5, 64).half()
'''
CELL = '''
with torch.no_grad():
    y = model(x)
print(y.dtype, model[0].up.qweight.dtype, model[0].up.scales.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
