"""Look-alike: HQQ with `offload_meta=True`: the packed zero/scale metadata of each quantized layer stays in (pinned) CPU memory beside GPU weights and is copied to the GPU inside every dequantize.

Source: https://github.com/mobiusml/hqq/blob/master/hqq/core/quantize.py
With `offload_meta`, `HQQLinear.cuda()` stacks `meta["zero"]` and `meta["scale"]` into
`meta["zero_scale"]` and keeps it on the CPU (`.contiguous().pin_memory()`); `dequantize()` does
`zero_scale = meta["zero_scale"].to(device=device)` with `device = W_q.device` before rebuilding the
weight, so the CPU-resident metadata is by design and the forward runs on the GPU.
Stand-in: a trimmed `HQQLinear` (8-bit, one group per row, no bit packing; `forward_pytorch`) in a
2-layer model whose quantized weights are on cuda:0 and whose metadata dicts hold CPU tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class HQQLinear(nn.Module):
    def __init__(self, W_q, zero, scale, bias, compute_dtype=torch.float32, offload_meta=True):
        super().__init__()
        self.compute_dtype = compute_dtype
        self.W_q = W_q
        self.bias = bias
        self.offload_meta = offload_meta
        self.meta = {"zero_scale": torch.stack((zero, scale)).to(compute_dtype), "shape": tuple(W_q.shape)}

    def dequantize(self):
        W_q, meta = self.W_q, self.meta
        device = W_q.device
        zero_scale = meta["zero_scale"].to(device=device)
        zero, scale = zero_scale[0], zero_scale[1]
        return (W_q.to(self.compute_dtype) - zero) * scale

    def forward_pytorch(self, x):
        out = torch.matmul(x, self.dequantize().t())
        if self.bias is not None:
            out += self.bias
        return out

    def forward(self, x):
        return self.forward_pytorch(x)

class MLP(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.up, self.down = layers

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))

device = "cuda:0"
def quantized(in_f, out_f):
    W_q = torch.randint(0, 255, (out_f, in_f), dtype=torch.uint8, device=device)
    zero = torch.full((out_f, 1), 128.0)                  # metadata kept on the CPU (offload_meta)
    scale = torch.full((out_f, 1), 0.01)
    bias = torch.zeros(out_f, device=device)
    return HQQLinear(W_q, zero, scale, bias)

model = MLP([quantized(32, 64), quantized(64, 32)])
x = torch.randn(4, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    out = model(x)
print(out.device, model.up.meta["zero_scale"].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
