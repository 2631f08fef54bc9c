"""Look-alike: gpt-fast's int8 weight-only quantized linear: int8 weight buffer, bfloat16 per-channel scales, bfloat16 activations.

Source: https://github.com/pytorch-labs/gpt-fast/blob/main/quantize.py
`WeightOnlyInt8Linear` registers `weight` as an int8 buffer and `scales` as a bfloat16 buffer and
computes `F.linear(input, self.weight.to(dtype=input.dtype)) * self.scales`: the int8 weight is cast
to the activation dtype inside `forward`, by design. `replace_linear_weight_only_int8_per_channel`
swaps the model's `nn.Linear` layers and the quantized state dict (from
`dynamically_quantize_per_channel`) is loaded into it.
Stand-in: a 2-layer feed-forward in bfloat16 on the CPU, quantized the same way.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class WeightOnlyInt8Linear(torch.nn.Module):
    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.register_buffer("weight", torch.empty((out_features, in_features), dtype=torch.int8))
        self.register_buffer("scales", torch.ones(out_features, dtype=torch.bfloat16))

    def forward(self, input):
        return F.linear(input, self.weight.to(dtype=input.dtype)) * self.scales

def dynamically_quantize_per_channel(x, quant_min, quant_max, target_dtype):
    scales = x.abs().amax(dim=1).clamp(min=1e-5) / quant_max
    quant = torch.clamp(torch.round(x / scales.unsqueeze(-1)), quant_min, quant_max).to(target_dtype)
    return quant, scales, None

def replace_linear_weight_only_int8_per_channel(module):
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            setattr(module, name, WeightOnlyInt8Linear(child.in_features, child.out_features))
        else:
            replace_linear_weight_only_int8_per_channel(child)

class FeedForward(nn.Module):
    def __init__(self, dim=32, hidden=64):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)))

model = FeedForward().to(dtype=torch.bfloat16)
cur_state_dict = model.state_dict()
for fqn, mod in model.named_modules():
    if isinstance(mod, nn.Linear):
        int8_weight, scales, _ = dynamically_quantize_per_channel(mod.weight.float(), -128, 127, torch.int8)
        cur_state_dict[f"{fqn}.weight"] = int8_weight
        cur_state_dict[f"{fqn}.scales"] = scales.to(mod.weight.dtype)
replace_linear_weight_only_int8_per_channel(model)
model.load_state_dict(cur_state_dict, assign=True)
x = torch.randn(2, 5, 32, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    y = model(x)
print(y.dtype, model.w1.weight.dtype, model.w1.scales.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
