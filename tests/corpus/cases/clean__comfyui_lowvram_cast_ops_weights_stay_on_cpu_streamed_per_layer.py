"""Look-alike: ComfyUI lowvram layer streaming; third-party layers swapped to comfy cast ops keep their weights on the CPU and cast them to the input's device per call.

Source: https://github.com/jtydhr88/ComfyUI-UltraShape1/issues/21
The issue proposes `_enable_lowvram_cast(model)` (from ComfyUI-MotionCapture): swap every leaf
`nn.*` layer's `__class__` to `comfy.ops.disable_weight_init.*`, whose forward calls
`cast_bias_weight(self, input)` to bring weight and bias to the input's device and dtype for that
call, and install forward pre-hooks on non-leaf modules that own direct parameters (a ViT's
`cls_token`, `pos_embed`) "so they get moved to the input device on-the-fly during lowvram
inference". The weights stay on the CPU on purpose while the activations are on the GPU; the model
runs. Stand-in: the cast ops for Linear and LayerNorm, the swap and the hook, a tiny ViT.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def cast_bias_weight(s, input):
    weight = s.weight.to(device=input.device, dtype=input.dtype)
    bias = s.bias.to(device=input.device, dtype=input.dtype) if s.bias is not None else None
    return weight, bias

class CastWeightBiasOp:
    comfy_cast_weights = True

class ops:
    class Linear(nn.Linear, CastWeightBiasOp):
        def forward(self, input):
            weight, bias = cast_bias_weight(self, input)
            return F.linear(input, weight, bias)

    class LayerNorm(nn.LayerNorm, CastWeightBiasOp):
        def forward(self, input):
            weight, bias = cast_bias_weight(self, input)
            return F.layer_norm(input, self.normalized_shape, weight, bias, self.eps)

def _move_own_params_hook(module, args):
    x = args[0]
    for name, p in list(module.named_parameters(recurse=False)):
        if p.device != x.device:
            module._parameters[name] = nn.Parameter(p.to(x.device), requires_grad=p.requires_grad)

def _enable_lowvram_cast(model):
    swap = {nn.Linear: ops.Linear, nn.LayerNorm: ops.LayerNorm}
    for m in model.modules():
        if type(m) in swap:
            m.__class__ = swap[type(m)]
        elif any(True for _ in m.parameters(recurse=False)):
            m.register_forward_pre_hook(_move_own_params_hook)

class TinyViT(nn.Module):
    def __init__(self, dim=32, patches=16):
        super().__init__()
        self.patch_embed = nn.Linear(48, dim)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, patches + 1, dim))
        self.blocks = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        x = self.patch_embed(x)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        return self.norm(x + self.blocks(x))

model = TinyViT()
_enable_lowvram_cast(model)                          # weights stay on the offload device (CPU)
device = torch.device("cuda:0")
patches = torch.randn(2, 16, 48, device=device)
'''
CELL = '''
features = model(patches)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
