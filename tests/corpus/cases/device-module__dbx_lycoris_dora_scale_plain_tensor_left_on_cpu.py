"""LyCORIS DoRA (`dora_wd=True`) LoRA training with sd-scripts: `dora_scale` stays on the CPU while the weight is on cuda:0.

Source: https://github.com/KohakuBlueleaf/LyCORIS/issues/189
Training an SDXL DoRA through sd-scripts (`--network_module lycoris.kohya`, `algo=lora`, `dora_wd=True`,
bf16, lycoris 2.2.0.post3) failed in `LoConModule.apply_weight_decompose` at
`return weight * (self.dora_scale / weight_norm)` with "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu!". The user fixed it with the change proposed in #160 and the
kohya_ss thread by updating to the dev build, where the line reads
`weight * (self.dora_scale.to(weight.device) / weight_norm)`. In 2.2.0.post3 `forward` moves the original
weight and the LoRA product to `x.device` itself, but not `dora_scale`: it is built as
`nn.Parameter(norm).float()`, which for a half/bf16 original weight is a plain tensor, registered neither
as parameter nor buffer, so `network.to(...)`/`accelerator.prepare` leave it where the U-Net was when the
network was created (the CPU).
Stand-ins: a two-layer U-Net block in bf16, LyCORIS `LoConModule` (DoRA path of the non-bypass forward) and
`LycorisNetworkKohya` (create/apply_to/add_module) reduced to what the bug needs; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class LoConModule(nn.Module):                        # lycoris.modules.locon (2.2.0.post3), stand-in
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
        weight_norm = (
            weight.transpose(0, 1)
            .reshape(weight.shape[1], -1)
            .norm(dim=1, keepdim=True)
            .reshape(weight.shape[1], *[1] * self.dora_norm_dims)
            .transpose(0, 1)
        )

        return weight * (self.dora_scale / weight_norm)

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
        self.multiplier = multiplier
        self.unet_loras = []
        for name, module in unet.named_modules():
            if name in self.UNET_TARGET:
                lora_name = "lora_unet_" + name
                self.unet_loras.append(LoConModule(lora_name, module, multiplier, lora_dim, alpha, **module_kwargs))
        self.text_encoder_loras = []
    def apply_to(self, text_encoder, unet, apply_text_encoder=None, apply_unet=None):
        for lora in self.text_encoder_loras + self.unet_loras:
            lora.apply_to()
            self.add_module(lora.lora_name, lora)
        self.loras = self.text_encoder_loras + self.unet_loras

def create_network(multiplier, network_dim, network_alpha, vae, text_encoder, unet, **kwargs):
    dora_wd = str(kwargs.get("dora_wd", False)).lower() == "true"
    return LycorisNetworkKohya(unet, multiplier, network_dim, network_alpha, weight_decompose=dora_wd)

class SDXLUNetBlock(nn.Module):                      # stand-in for the SDXL U-Net (two targeted linears)
    def __init__(self, dim=32):
        super().__init__()
        self.proj_in = nn.Linear(dim, dim)
        self.proj_out = nn.Linear(dim, dim)
    def forward(self, x):
        return self.proj_out(F.gelu(self.proj_in(x)))

weight_dtype = torch.bfloat16
device = torch.device("cuda:0")
unet = SDXLUNetBlock().to(weight_dtype)            # loaded in the training dtype, still on the CPU
network = create_network(1.0, 16, 8, None, None, unet, algo="lora", dora_wd="True")
network.apply_to(None, unet, apply_text_encoder=False, apply_unet=True)

unet.to(device)
network.to(device)                                  # accelerator.prepare(network)
noisy_latents = torch.randn(2, 32, device=device)
'''
CELL = '''
model_pred = unet(noisy_latents)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["network"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return weight * (self.dora_scale / weight_norm)",
                  "return weight * (self.dora_scale.to(weight.device) / weight_norm)")
CLEAN = False
