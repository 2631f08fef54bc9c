"""OneTrainer DoRA on a W8A8-quantized model with layer offloading: an offloaded layer's `weight` is on the CPU, its `scale` buffer on cuda:0.

Source: https://github.com/Nerogar/OneTrainer/issues/1571
Training a W8A8 (int8) model with `layer_offload_fraction > 0` and a DoRA adapter raised "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu!" in `quantization_util.dequantize`
(`return q.float() * scale`) while the adapters were initialised. The issue explains it: the
`LayerOffloadConductor` parks layers on the temp device through `offload_quantized`, which relocates only each
layer's `weight` and `bias`; the `scale` buffer of `LinearW8A8` stays on the train device, and
`DoRAModule.initialize_weights` rebuilds the base weight with `get_unquantized_weight(...)`. The fix (#1673)
dequantizes against the scale on the weight's device:
`dequantize(self.weight.detach(), self.scale.to(device=self.weight.device))`.
Stand-ins: `LinearW8A8` (int8, tensor-wise scale), `quantize_int8_tensorwise`, `dequantize`,
`get_unquantized_weight`, `get_offload_tensors`/`offload_quantized`, a conductor that parks the last half of the blocks
(re-wrapping the moved data in a new Parameter, as the simulated GPU ignores `tensor.data = ...`),
`LoRAModule`/`DoRAModule` reduced to the weight initialisation, and a two-block transformer; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import Tensor, nn

def quantize_int8_tensorwise(x: Tensor):
    abs_max = x.abs().max()
    scale = (abs_max.float() / 127.0).clamp(min=1e-30)
    q = x.float().div(scale).round().clamp(-128.0, 127.0).to(torch.int8)
    return q, scale

def dequantize(q: Tensor, scale) -> Tensor:
    return q.float() * scale

class LinearW8A8(nn.Linear):                        # modules/module/quantized/LinearW8A8.py (stand-in)
    def __init__(self, dtype, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._dtype = dtype
        self.__is_quantized = False
        self.register_buffer("scale", torch.tensor(1.0, dtype=torch.float32))
    def unquantized_weight(self, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
        return dequantize(self.weight.detach(), self.scale).to(dtype)
    @torch.no_grad()
    def quantize(self, device=None):
        if self.__is_quantized:
            return
        self.__is_quantized = True
        weight, scale = quantize_int8_tensorwise(self.weight.detach())
        self.requires_grad_(False)
        self.weight.data = weight
        self.scale.copy_(scale)
    def forward(self, x):
        w = dequantize(self.weight.detach(), self.scale)
        return torch.nn.functional.linear(x, w, self.bias)

def replace_linear_with_w8a8(module: nn.Module):
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            q = LinearW8A8(torch.int8, child.in_features, child.out_features, bias=child.bias is not None)
            q.weight = nn.Parameter(child.weight.detach().clone(), requires_grad=False)
            if child.bias is not None:
                q.bias = nn.Parameter(child.bias.detach().clone(), requires_grad=False)
            q.quantize()
            setattr(module, name, q)
        else:
            replace_linear_with_w8a8(child)

def get_unquantized_weight(module: nn.Linear, dtype: torch.dtype, device: torch.device) -> Tensor:
    if isinstance(module, LinearW8A8):
        return module.unquantized_weight(dtype, device)
    return module.weight.detach().to(dtype=dtype)

def get_offload_tensors(module: nn.Module):
    tensors = []
    if isinstance(module, nn.Linear | nn.Conv2d):
        tensors += [module.weight]
    if isinstance(module, nn.Linear) and module.bias is not None:
        tensors += [module.bias]
    return tensors

def offload_quantized(module: nn.Module, device: torch.device, non_blocking: bool = False):
    tensors = get_offload_tensors(module)
    for name, param in list(module.named_parameters(recurse=False)):
        if any(param is t for t in tensors):             # OneTrainer: tensor.data = tensor.data.to(device)
            setattr(module, name, nn.Parameter(param.data.to(device=device, non_blocking=non_blocking),
                                               requires_grad=param.requires_grad))

class LayerOffloadConductor:                        # modules/util/LayerOffloadConductor.py (stand-in)
    def __init__(self, layers, train_device, temp_device, layer_offload_fraction):
        self.layers, self.train_device, self.temp_device = layers, train_device, temp_device
        self.layer_offload_fraction = layer_offload_fraction
    def to(self, device):
        n_offload = int(len(self.layers) * self.layer_offload_fraction)
        for i, layer in enumerate(self.layers):
            layer.to(self.train_device)
            if i >= len(self.layers) - n_offload:
                for m in layer.modules():
                    offload_quantized(m, self.temp_device, non_blocking=True)

class LoRAModule(nn.Module):
    def __init__(self, prefix, orig_module, rank, alpha):
        super().__init__()
        self.prefix, self.orig_module, self.rank, self.alpha = prefix, orig_module, rank, alpha
        self.lora_down = nn.Linear(orig_module.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, orig_module.out_features, bias=False)
    def initialize_weights(self):
        nn.init.zeros_(self.lora_up.weight)

class DoRAModule(LoRAModule):                       # modules/module/LoRAModule.py (stand-in)
    def __init__(self, *args, **kwargs):
        self.dora_scale = None
        self.train_device = kwargs.pop("train_device")
        super().__init__(*args, **kwargs)
    def initialize_weights(self):
        super().initialize_weights()
        orig_weight = get_unquantized_weight(self.orig_module, torch.float, self.train_device)
        self.dora_num_dims = orig_weight.dim() - 1
        self.dora_scale = nn.Parameter(
            torch.norm(orig_weight.transpose(1, 0).reshape(orig_weight.shape[1], -1), dim=1, keepdim=True)
            .reshape(orig_weight.shape[1], *[1] * self.dora_num_dims)
            .transpose(1, 0)
            .to(device=self.orig_module.weight.device)
        )
        del orig_weight

class TransformerBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.ff = nn.Linear(dim, dim)
    def forward(self, x):
        return x + self.ff(torch.relu(self.proj(x)))

class Transformer(nn.Module):
    def __init__(self, dim=32, n_blocks=2):
        super().__init__()
        self.blocks = nn.ModuleList([TransformerBlock(dim) for _ in range(n_blocks)])

train_device = torch.device("cuda:0")
temp_device = torch.device("cpu")

transformer = Transformer()
replace_linear_with_w8a8(transformer)              # weight dtype: int8 W8A8
conductor = LayerOffloadConductor(list(transformer.blocks), train_device, temp_device,
                                  layer_offload_fraction=0.5)
conductor.to(train_device)                          # GenericTrainer: setup_train_device before setup_model

lora_modules = {
    f"blocks.{i}.{name}": DoRAModule(f"blocks.{i}.{name}", getattr(block, name), 4, 1.0, train_device=train_device)
    for i, block in enumerate(transformer.blocks) for name in ("proj", "ff")
}
'''
CELL = '''
for name, module in lora_modules.items():
    module.initialize_weights()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["transformer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return dequantize(self.weight.detach(), self.scale).to(dtype)",
                  "        return dequantize(self.weight.detach(), self.scale.to(device=self.weight.device)).to(dtype)")
CLEAN = False
