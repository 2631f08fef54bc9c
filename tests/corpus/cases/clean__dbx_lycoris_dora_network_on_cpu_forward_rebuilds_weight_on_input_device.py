"""Look-alike: a LyCORIS DoRA (LoCon, `dora_wd=True`) network applied to a cuda:0 U-Net but left on the CPU; its forward rebuilds the weight on the input's device.

Source: https://github.com/KohakuBlueleaf/LyCORIS/blob/main/lycoris/modules/locon.py (2.3.0.dev2 version)
`LoConModule.forward` (non-bypass) builds the merged weight where the activation is:
`org_module.weight.data.to(device=x.device, dtype=dtype) + make_weight(x.device)...`, with `make_weight` moving
`lora_up`/`lora_down`/`scalar` to that device, and `apply_weight_decompose` moving `dora_scale` with
`self.dora_scale.to(weight.device)`. A network whose parameters stay on the CPU next to a GPU U-Net therefore
runs (the weights are copied on the fly, and autograd follows the copies back). Here the network is created and
applied but never `.to()`-ed.
Stand-ins: `LoConModule` (linear, non-bypass path), `LycorisNetworkKohya` (create/apply_to/add_module) and a
two-layer fp32 U-Net block; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class LoConModule(nn.Module):                        # lycoris.modules.locon (stand-in)
    def __init__(self, lora_name, org_module, multiplier=1.0, lora_dim=4, alpha=1,
                 weight_decompose=False, bypass_mode=False, **kwargs):
        super().__init__()
        self.lora_name = lora_name
        self.lora_dim = lora_dim
        in_dim, out_dim = org_module.in_features, org_module.out_features
        self.op = F.linear
        self.extra_args = {}
        self.lora_down = nn.Linear(in_dim, lora_dim, bias=False)
        self.lora_up = nn.Linear(lora_dim, out_dim, bias=False)
        self.shape = org_module.weight.shape
        self.wd = weight_decompose
        if self.wd:
            org_weight: nn.Parameter = org_module.weight
            self.dora_norm_dims = org_weight.dim() - 1
            self.dora_scale = nn.Parameter(
                torch.norm(
                    org_weight.transpose(1, 0).reshape(org_weight.shape[1], -1),
                    dim=1,
                    keepdim=True,
                )
                .reshape(org_weight.shape[1], *[1] * self.dora_norm_dims)
                .transpose(1, 0)
            ).float()
        self.bypass_mode = bypass_mode
        self.scale = alpha / lora_dim
        self.register_buffer("alpha", torch.tensor(float(alpha)))
        self.scalar = torch.tensor(1.0)
        torch.nn.init.zeros_(self.lora_up.weight)
        self.multiplier = multiplier
        self.org_module = [org_module]
        self.org_forward = self.org_module[0].forward

    def apply_to(self, **kwargs):
        self.org_forward = self.org_module[0].forward
        self.org_module[0].forward = self.forward

    def make_weight(self, device=None):
        wa = self.lora_up.weight.to(device)
        wb = self.lora_down.weight.to(device)
        weight = wa.view(wa.size(0), -1) @ wb.view(wb.size(0), -1)
        weight = weight.view(self.shape)
        return weight * self.scalar.to(device)

    def apply_weight_decompose(self, weight):
        weight = weight.to(self.dora_scale.dtype)
        weight_norm = (
            weight.transpose(0, 1)
            .reshape(weight.shape[1], -1)
            .norm(dim=1, keepdim=True)
            .reshape(weight.shape[1], *[1] * self.dora_norm_dims)
            .transpose(0, 1)
        )
        return weight * (self.dora_scale.to(weight.device) / weight_norm)

    def forward(self, x):
        scale = self.scale * self.multiplier
        dtype = next(self.parameters()).dtype
        weight = (
            self.org_module[0].weight.data.to(device=x.device, dtype=dtype)
            + self.make_weight(x.device).to(device=x.device, dtype=dtype) * scale
        )
        if self.wd:
            weight = self.apply_weight_decompose(weight)
        bias = None if self.org_module[0].bias is None else self.org_module[0].bias.data
        return self.op(x, weight, bias, **self.extra_args)

class LycorisNetworkKohya(nn.Module):                # lycoris.kohya (stand-in)
    UNET_TARGET = ("proj_in", "proj_out")
    def __init__(self, unet, multiplier=1.0, lora_dim=4, alpha=1, **module_kwargs):
        super().__init__()
        self.unet_loras = [LoConModule("lora_unet_" + name, module, multiplier, lora_dim, alpha, **module_kwargs)
                           for name, module in unet.named_modules() if name in self.UNET_TARGET]
        self.text_encoder_loras = []
    def apply_to(self, text_encoder, unet, apply_text_encoder=None, apply_unet=None):
        for lora in self.text_encoder_loras + self.unet_loras:
            lora.apply_to()
            self.add_module(lora.lora_name, lora)

class UNetBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj_in = nn.Linear(dim, dim)
        self.proj_out = nn.Linear(dim, dim)
    def forward(self, x):
        return self.proj_out(F.gelu(self.proj_in(x)))

device = torch.device("cuda:0")
unet = UNetBlock()
network = LycorisNetworkKohya(unet, 1.0, 16, 8, weight_decompose=True)
network.apply_to(None, unet, apply_text_encoder=False, apply_unet=True)
unet.to(device)                                     # the network itself stays on the CPU
noisy_latents = torch.randn(2, 32, device=device)
'''
CELL = '''
model_pred = unet(noisy_latents)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
