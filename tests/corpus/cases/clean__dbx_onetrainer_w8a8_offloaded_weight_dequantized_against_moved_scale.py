"""Look-alike: OneTrainer W8A8 layer parked on the CPU by layer offloading while its `scale` stays on cuda:0; the dequantization moves the scale to the weight.

Source: https://github.com/Nerogar/OneTrainer/blob/master/modules/module/quantized/LinearW8A8.py
With `layer_offload_fraction > 0` the `LayerOffloadConductor` relocates only each layer's `weight` and `bias`
(`offload_quantized`), so an offloaded `LinearW8A8` has its int8 weight on the temp device (CPU) and its `scale`
buffer on the train device. Since #1673 `unquantized_weight` dequantizes against
`self.scale.to(device=self.weight.device)`, so `DoRAModule.initialize_weights` rebuilds the base weight of every
layer, offloaded or not, and creates `dora_scale` on the layer weight's device. Mixed placements here are the
offloader's design.
Stand-ins: as in the OneTrainer W8A8 offload case of this set (`LinearW8A8`, int8 tensor-wise quantization,
`get_unquantized_weight`, `offload_quantized`, a conductor parking the last half of the blocks by re-wrapping the
moved data in a new Parameter, `DoRAModule` weight initialisation, a two-block transformer); the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
        # 'scale' is not offloaded, so it can sit on the train device while 'weight' is parked on the temp device
        return dequantize(self.weight.detach(), self.scale.to(device=self.weight.device)).to(dtype)
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
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
