"""Look-alike: FastChat's `--load-8bit` CLinear keeps int8 weight groups plus fp16 scales on the GPU and casts the incoming activations to the dequantized weight's dtype inside `forward`.

Source: https://github.com/lm-sys/FastChat/blob/main/fastchat/model/compression.py
`CLinear.__init__` stores `compress(weight.data.to(device), default_compression_config)`, a tuple
(int8 data, scale, shape) rather than a Parameter; `forward` dequantizes (`data / scale` gives the
scale's fp16) and runs `F.linear(input.to(weight.dtype), weight, self.bias.to(weight.dtype))`. Feeding
fp32 hidden states (an fp32 embedding output) into an fp16-compressed layer is fine: the cast is
inside. `compress`/`decompress` and `compress_module` are FastChat's, reduced to the symmetric path.
Stand-in: a two-layer MLP block whose Linear layers are swapped for CLinear.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import dataclasses
import torch
import torch.nn as nn
from torch import Tensor
from torch.nn import functional as F

@dataclasses.dataclass
class CompressionConfig:
    num_bits: int
    group_size: int
    group_dim: int
    symmetric: bool
    enabled: bool = True

default_compression_config = CompressionConfig(num_bits=8, group_size=256, group_dim=1, symmetric=True, enabled=True)

def compress(tensor, config):
    group_size, num_bits, group_dim = config.group_size, config.num_bits, config.group_dim
    original_shape = tensor.shape
    num_groups = (original_shape[group_dim] + group_size - 1) // group_size
    new_shape = original_shape[:group_dim] + (num_groups, group_size) + original_shape[group_dim + 1:]
    pad_len = (group_size - original_shape[group_dim] % group_size) % group_size
    if pad_len != 0:
        pad_shape = original_shape[:group_dim] + (pad_len,) + original_shape[group_dim + 1:]
        tensor = torch.cat([tensor, torch.zeros(pad_shape, dtype=tensor.dtype, device=tensor.device)], dim=group_dim)
    data = tensor.view(new_shape)
    B = 2 ** (num_bits - 1) - 1
    scale = B / torch.max(data.abs(), dim=group_dim + 1, keepdim=True)[0]
    data = data * scale
    data = data.clamp_(-B, B).round_().to(torch.int8)
    return data, scale, original_shape

def decompress(packed_data, config):
    group_size, group_dim = config.group_size, config.group_dim
    data, scale, original_shape = packed_data
    data = data / scale
    pad_len = (group_size - original_shape[group_dim] % group_size) % group_size
    if pad_len:
        padded_original_shape = (original_shape[:group_dim] + (original_shape[group_dim] + pad_len,)
                                 + original_shape[group_dim + 1:])
        data = data.reshape(padded_original_shape)
        indices = [slice(0, x) for x in original_shape]
        return data[indices].contiguous()
    return data.view(original_shape)

class CLinear(nn.Module):
    """Compressed Linear Layer."""
    def __init__(self, weight=None, bias=None, device=None):
        super().__init__()
        self.weight = compress(weight.data.to(device), default_compression_config)
        self.bias = bias
    def forward(self, input: Tensor) -> Tensor:
        weight = decompress(self.weight, default_compression_config)
        if self.bias is None:
            return F.linear(input.to(weight.dtype), weight)
        return F.linear(input.to(weight.dtype), weight, self.bias.to(weight.dtype))

def compress_module(module, target_device):
    for attr_str in dir(module):
        target_attr = getattr(module, attr_str)
        if type(target_attr) == torch.nn.Linear:
            setattr(module, attr_str, CLinear(target_attr.weight, target_attr.bias, target_device))
    for name, child in module.named_children():
        compress_module(child, target_device)

class LlamaMLP(nn.Module):
    def __init__(self, hidden=256, inter=512):
        super().__init__()
        self.up_proj = nn.Linear(hidden, inter, bias=False)
        self.down_proj = nn.Linear(inter, hidden, bias=True)
    def forward(self, x):
        return self.down_proj(F.silu(self.up_proj(x)))

device = "cuda:0"
mlp = LlamaMLP().half().to(device)     # load_compress_model(..., torch_dtype=torch.float16)
compress_module(mlp, device)
embed_tokens = nn.Embedding(64, 256).to(device)            # fp32 embedding output
input_ids = torch.randint(0, 64, (1, 8), device=device)
'''
CELL = '''
with torch.no_grad():
    hidden_states = embed_tokens(input_ids)
    out = mlp(hidden_states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
