"""torchao Float8Linear under bf16 autocast with backward scaling DISABLED: grad_input multiplies the bf16 grad_output by the saved fp32 master weight.

Source: https://github.com/pytorch/ao/issues/4616
"DISABLED backward path crashes with dtype mismatch under autocast": `Float8Linear.forward` casts its
input to the autocast dtype (bf16) but passes `self.weight.t()` (fp32 master weight); both are saved
by `matmul_with_hp_or_float8_args`. With `cast_config_weight_for_grad_input` (and grad_output) set to
`ScalingType.DISABLED`, backward uses the raw `weight_hp_t` in `torch.mm(grad_output..., weight.t())`,
which does not promote: "expected scalar type BFloat16 but found Float". The proposed fix (PR
pytorch/ao#4791) casts `weight_hp_t` to the grad_output dtype in the DISABLED branch.
Stand-ins: torchao's config/scaling enums, an emulated float8 cast (quantize to float8_e4m3fn and
back to float32 with its scale), the autograd Function and `Float8Linear` reduced to that path.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import enum
from dataclasses import dataclass, field
import torch
import torch.nn as nn

class ScalingType(enum.Enum):
    DYNAMIC = "dynamic"
    DISABLED = "disabled"

@dataclass
class CastConfig:
    scaling_type: ScalingType = ScalingType.DYNAMIC

@dataclass
class Float8LinearConfig:
    cast_config_input: CastConfig = field(default_factory=CastConfig)
    cast_config_weight: CastConfig = field(default_factory=CastConfig)
    cast_config_grad_output: CastConfig = field(default_factory=CastConfig)
    cast_config_input_for_grad_weight: CastConfig = field(default_factory=CastConfig)
    cast_config_weight_for_grad_input: CastConfig = field(default_factory=CastConfig)
    cast_config_grad_output_for_grad_weight: CastConfig = field(default_factory=CastConfig)
    emulate: bool = True

def hp_tensor_to_float8_dynamic(hp, float8_dtype=torch.float8_e4m3fn):
    """Emulated float8 cast: scale to the float8 range, round through float8, come back in float32."""
    amax = hp.detach().abs().max().float().clamp(min=1e-12)
    scale = torch.finfo(float8_dtype).max / amax
    return (hp.float() * scale).to(float8_dtype).float() / scale

class matmul_with_hp_or_float8_args(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input_hp, weight_hp_t, config):
        ctx.save_for_backward(input_hp, weight_hp_t)
        ctx.config = config
        c = config
        input_maybe_fp8 = (input_hp if c.cast_config_input.scaling_type is ScalingType.DISABLED
                           else hp_tensor_to_float8_dynamic(input_hp))
        weight_maybe_fp8_t = (weight_hp_t if c.cast_config_weight.scaling_type is ScalingType.DISABLED
                              else hp_tensor_to_float8_dynamic(weight_hp_t))
        orig_shape = input_maybe_fp8.shape
        res_bits = torch.mm(input_maybe_fp8.reshape(-1, orig_shape[-1]), weight_maybe_fp8_t)
        return res_bits.reshape(*orig_shape[:-1], res_bits.shape[-1]).to(input_hp.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        input_hp, weight_hp_t = ctx.saved_tensors
        c = ctx.config
        grad_output_orig_shape = grad_output.shape
        grad_output_reshaped = grad_output.reshape(-1, grad_output_orig_shape[-1])

        # calculate grad_input
        if c.cast_config_grad_output.scaling_type is ScalingType.DISABLED:
            grad_output_reshaped_maybe_fp8_dim0 = grad_output_reshaped
        else:
            grad_output_reshaped_maybe_fp8_dim0 = hp_tensor_to_float8_dynamic(grad_output_reshaped, torch.float8_e5m2)
        if c.cast_config_weight_for_grad_input.scaling_type is ScalingType.DISABLED:
            weight_t_maybe_fp8_dim0 = weight_hp_t
        else:
            weight_t_maybe_fp8_dim0 = hp_tensor_to_float8_dynamic(weight_hp_t)
        grad_input = torch.mm(
            grad_output_reshaped_maybe_fp8_dim0,
            weight_t_maybe_fp8_dim0.t(),
        )
        grad_input = grad_input.reshape(*grad_output_orig_shape[:-1], grad_input.shape[-1])

        # calculate grad_weight
        input_hp_reshaped = input_hp.reshape(-1, input_hp.shape[-1])
        if c.cast_config_grad_output_for_grad_weight.scaling_type is ScalingType.DISABLED:
            grad_output_reshaped_maybe_fp8_dim1 = grad_output_reshaped
        else:
            grad_output_reshaped_maybe_fp8_dim1 = hp_tensor_to_float8_dynamic(grad_output_reshaped, torch.float8_e5m2)
        if c.cast_config_input_for_grad_weight.scaling_type is ScalingType.DISABLED:
            input_reshaped_maybe_fp8_dim1 = input_hp_reshaped
        else:
            input_reshaped_maybe_fp8_dim1 = hp_tensor_to_float8_dynamic(input_hp_reshaped)
        grad_weight = torch.mm(grad_output_reshaped_maybe_fp8_dim1.t(), input_reshaped_maybe_fp8_dim1)
        return grad_input, grad_weight.t().to(weight_hp_t.dtype), None

class Float8Linear(nn.Linear):
    def __init__(self, *args, config, **kwargs):
        super().__init__(*args, **kwargs)
        self.config = config

    def forward(self, input):
        if torch.is_autocast_enabled(input.device.type):
            autocast_dtype = torch.get_autocast_dtype(input.device.type)
            input = input.to(autocast_dtype)
        output = matmul_with_hp_or_float8_args.apply(input, self.weight.t(), self.config)
        if self.bias is not None:
            output = output + self.bias.to(output.dtype)
        return output

    @classmethod
    def from_float(cls, mod, config):
        new_mod = cls(mod.in_features, mod.out_features, bias=mod.bias is not None, config=config)
        new_mod.weight = mod.weight
        new_mod.bias = mod.bias
        return new_mod

def convert_to_float8_training(module, config):
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            setattr(module, name, Float8Linear.from_float(child, config))
        else:
            convert_to_float8_training(child, config)
    return module

# backward casts turned off: only the forward gemm runs in float8
config = Float8LinearConfig(
    cast_config_grad_output=CastConfig(ScalingType.DISABLED),
    cast_config_input_for_grad_weight=CastConfig(ScalingType.DISABLED),
    cast_config_weight_for_grad_input=CastConfig(ScalingType.DISABLED),
    cast_config_grad_output_for_grad_weight=CastConfig(ScalingType.DISABLED),
)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 64))
convert_to_float8_training(model, config)
x = torch.randn(8, 64, requires_grad=True)
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = model(x)
    loss = y.float().pow(2).mean()
loss.backward()
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected scalar type BFloat16 but found Float",
                "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["matmul_with_hp_or_float8_args"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            weight_t_maybe_fp8_dim0 = weight_hp_t\n",
                  "            weight_t_maybe_fp8_dim0 = weight_hp_t.to(grad_output_reshaped_maybe_fp8_dim0.dtype)\n")
CLEAN = False
