"""FSDP MixedPrecision casts the parameters to half but not a registered (non-learnable) conv kernel buffer.

Source: https://github.com/pytorch/pytorch/issues/143900
"FSDP mixed precision ignores buffer_dtype ... buffers in FSDP are not casted to requested dtype,
and code breaks. User is forced to cast buffers each time in forward": in a `NonLearnableConv`
that holds a blur kernel as a buffer, `nn.functional.conv2d(x, self.kernel, groups=...)` raised
"expected scalar type Half but found Float". Stand-in: a wrapper that, like FSDP's
`MixedPrecision(param_dtype=torch.float16, buffer_dtype=torch.float16)` in that report, casts only
the parameters (and the forward inputs) to half; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class NonLearnableConv(nn.Module):
    def __init__(self, kernel, in_channels):
        super().__init__()
        self.padding = (len(kernel) - 1) // 2
        k = torch.tensor(kernel, dtype=torch.float32)
        k = (k[:, None] * k[None, :]) / k.sum() ** 2
        self.register_buffer("kernel", k.expand(in_channels, 1, -1, -1).contiguous())

    def forward(self, x):
        return nn.functional.conv2d(x, self.kernel, groups=self.kernel.shape[0], stride=2,
                                    padding=self.padding)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.blur = NonLearnableConv((1, 3, 3, 1), 8)
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        return self.head(self.blur(torch.relu(self.conv(x))))

class FSDP(nn.Module):
    """Stand-in: MixedPrecision(param_dtype=float16, reduce_dtype=float16, buffer_dtype=float16)."""
    def __init__(self, module, param_dtype):
        super().__init__()
        self.module = module
        self.param_dtype = param_dtype
        for p in module.parameters():          # flat params cast for the forward ...
            p.data = p.data.to(param_dtype)    # ... buffers are not (the reported bug)

    def forward(self, x):
        return self.module(x.to(self.param_dtype))

model = FSDP(Model(), param_dtype=torch.float16)
x = torch.randn(2, 3, 16, 16)
'''
CELL = '''
with torch.no_grad():
    out = model(x)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "should be the same")
CULPRITS = ["model.module.blur.kernel"]
FIX = "namespace"
REFERENCE_FIX = '''
model.module.blur.kernel = model.module.blur.kernel.half()
'''
REFERENCE_EDIT = None
CLEAN = False
