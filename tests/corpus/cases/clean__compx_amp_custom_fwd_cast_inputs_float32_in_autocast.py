"""AMP docs: a custom autograd.Function decorated with `custom_fwd(cast_inputs=torch.float32)` called inside an autocast region.

Source: https://pytorch.org/docs/stable/notes/amp_examples.html
"Functions that need a particular dtype": `MyFloat32Func` is decorated with
`@custom_fwd(cast_inputs=torch.float32)` / `@custom_bwd`, so when called under autocast its
low-precision inputs are cast to float32 and it runs with autocast disabled, next to layers that run
in the low-precision dtype. Mixed dtypes by design; look-alike that runs. Here CPU autocast in
bfloat16 plays CUDA autocast in float16; the function body stands for a float32-only kernel.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.amp import custom_fwd, custom_bwd

class MyFloat32Func(torch.autograd.Function):
    @staticmethod
    @custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, input, weight):
        assert input.dtype == torch.float32 and weight.dtype == torch.float32
        ctx.save_for_backward(input, weight)
        return torch.mm(input, weight.t())

    @staticmethod
    @custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        input, weight = ctx.saved_tensors
        return grad.mm(weight), grad.t().mm(input)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)
        self.weight = nn.Parameter(torch.randn(16, 32) * 0.1)

    def forward(self, x):
        h = self.proj(x)                       # bfloat16 under autocast
        return MyFloat32Func.apply(h, self.weight)

model = Net()
input = torch.randn(8, 32)
'''
CELL = '''
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    output = model(input)
    loss = output.float().pow(2).mean()
loss.backward()
print(output.dtype, model.weight.grad.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
