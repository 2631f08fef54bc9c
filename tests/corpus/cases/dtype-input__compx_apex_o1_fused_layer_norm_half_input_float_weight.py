"""apex O1: `FusedLayerNorm` after a Linear gets a half input but float32 weight and bias: "expected scalar type Half but found Float".

Source: https://github.com/NVIDIA/apex/issues/1379
The user's model is `self.ln = nn.Linear(...)` followed by `self.norm = FusedLayerNorm(...)`,
initialised with `amp.initialize(model, optimizer, opt_level="O1")`. O1 patches torch functions
(the Linear runs in half) but not apex's own `fused_layer_norm_affine`, so the autograd Function
hands the CUDA kernel a half `input` with float32 `weight`/`bias`. The user found that casting
`weight` and `bias` to `input.dtype` (or registering the function with amp) makes it work.
Stand-ins: the `fused_layer_norm_cuda` kernel's dtype check as a Python function behind the same
autograd.Function; CPU autocast in bfloat16 plays O1's half Linear.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class fused_layer_norm_cuda:            # stand-in for the compiled extension
    @staticmethod
    def forward_affine(input, normalized_shape, weight, bias, eps):
        for t in (weight, bias):
            if t.dtype != input.dtype:
                names = {torch.float16: "Half", torch.bfloat16: "BFloat16", torch.float32: "Float"}
                raise RuntimeError(f"expected scalar type {names[input.dtype]} but found {names[t.dtype]}")
        out = torch.nn.functional.layer_norm(input, normalized_shape, weight, bias, eps)
        return out, None, None

class FusedLayerNormAffineFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias, normalized_shape, eps):
        ctx.normalized_shape, ctx.eps = normalized_shape, eps
        input_, weight_, bias_ = input.contiguous(), weight.contiguous(), bias.contiguous()
        output, mean, invvar = fused_layer_norm_cuda.forward_affine(
            input_, ctx.normalized_shape, weight_, bias_, ctx.eps)
        return output

def fused_layer_norm_affine(input, weight, bias, normalized_shape, eps=1e-6):
    return FusedLayerNormAffineFunction.apply(input, weight, bias, normalized_shape, eps)

class FusedLayerNorm(nn.Module):
    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__()
        self.normalized_shape = (normalized_shape,)
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_shape))
        self.bias = nn.Parameter(torch.zeros(normalized_shape))

    def forward(self, input):
        return fused_layer_norm_affine(input, self.weight, self.bias, self.normalized_shape, self.eps)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.Linear(64, 64)
        self.norm = FusedLayerNorm(64)

    def forward(self, x):
        return self.norm(self.ln(x))

model = Model()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
# model, optimizer = amp.initialize(model, optimizer, opt_level="O1")
x = torch.randn(8, 64)
'''
CELL = '''
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):   # O1: Linear runs in half
    y = model(x)
'''
EXPECT_ERROR = "expected scalar type"
CULPRITS = ["model.norm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return fused_layer_norm_affine(input, self.weight, self.bias, self.normalized_shape, self.eps)",
                  "        return fused_layer_norm_affine(input, self.weight.to(input.dtype), self.bias.to(input.dtype),\n"
                  "                                       self.normalized_shape, self.eps)")
CLEAN = False
