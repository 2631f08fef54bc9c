"""Look-alike: OpenFold's `LayerNorm` / `Linear` keep float32 parameters and cast them to a bfloat16 input's dtype.

Source: https://github.com/aqlaboratory/openfold/blob/main/openfold/model/primitives.py
OpenFold primitives keep their weights in float32 and, when the activation is bfloat16 (bf16 training
or inference, no DeepSpeed), compute with `self.weight.to(dtype=d)` / `self.bias.to(dtype=d)` inside
`autocast(enabled=False)`; with a float32 input they use the parameters as they are. A pair
representation in bf16 therefore runs through float32 modules on purpose. Stand-in: the two
primitives (deepspeed check reduced to False, autocast context dropped on the CPU) and a small
pair-transition block.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

deepspeed_is_installed = False

class Linear(nn.Linear):
    def __init__(self, in_dim, out_dim, bias=True, precision=None):
        super().__init__(in_dim, out_dim, bias=bias)
        self.precision = precision

    def forward(self, input):
        d = input.dtype
        deepspeed_is_initialized = deepspeed_is_installed
        if self.precision is not None:
            bias = self.bias.to(dtype=self.precision) if self.bias is not None else None
            return nn.functional.linear(input.to(dtype=self.precision),
                                        self.weight.to(dtype=self.precision), bias).to(dtype=d)
        if d is torch.bfloat16 and not deepspeed_is_initialized:
            bias = self.bias.to(dtype=d) if self.bias is not None else None
            return nn.functional.linear(input, self.weight.to(dtype=d), bias)
        return nn.functional.linear(input, self.weight, self.bias)

class LayerNorm(nn.Module):
    def __init__(self, c_in, eps=1e-5):
        super(LayerNorm, self).__init__()
        self.c_in = (c_in,)
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(c_in))
        self.bias = nn.Parameter(torch.zeros(c_in))

    def forward(self, x):
        d = x.dtype
        deepspeed_is_initialized = deepspeed_is_installed
        if d is torch.bfloat16 and not deepspeed_is_initialized:
            out = nn.functional.layer_norm(x, self.c_in, self.weight.to(dtype=d), self.bias.to(dtype=d), self.eps)
        else:
            out = nn.functional.layer_norm(x, self.c_in, self.weight, self.bias, self.eps)
        return out

class PairTransition(nn.Module):
    def __init__(self, c_z, n):
        super().__init__()
        self.layer_norm = LayerNorm(c_z)
        self.linear_1 = Linear(c_z, n * c_z)
        self.relu = nn.ReLU()
        self.linear_2 = Linear(n * c_z, c_z)

    def forward(self, z, mask):
        z = self.layer_norm(z)
        z = self.linear_2(self.relu(self.linear_1(z))) * mask.unsqueeze(-1)
        return z

pair_transition = PairTransition(c_z=16, n=2)          # parameters stay float32
z = torch.randn(1, 12, 12, 16).to(torch.bfloat16)     # bf16 pair representation
pair_mask = torch.ones(1, 12, 12, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    z = z + pair_transition(z, mask=pair_mask)
print(z.dtype, next(pair_transition.parameters()).dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
