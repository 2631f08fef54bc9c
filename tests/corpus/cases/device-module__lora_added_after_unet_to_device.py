"""LoRA layers are injected into the UNet after `unet.to(device)`: the new adapter weights stay on the CPU.

Source: https://github.com/huggingface/diffusers/issues/5897
train_text_to_image_lora.py failed with "Expected all tensors to be on the same device, cuda:0
and cpu". As a commenter found, the script moved the frozen unet to the GPU and only then called
`unet.add_adapter(...)`, so the freshly created LoRA Linear layers live on the CPU; the fix is to
add the adapter first and move the unet afterwards (or move it again). Stand-in: a tiny UNet with
one attention block and a peft-like `add_adapter` that wraps to_q/to_v in LoRA layers.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class LoRALinear(nn.Module):
    def __init__(self, base, rank=4, alpha=4):
        super().__init__()
        self.base = base
        self.lora_down = nn.Linear(base.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.lora_up.weight)
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.lora_up(self.lora_down(x)) * self.scale

class Attention(nn.Module):
    def __init__(self, dim, context_dim):
        super().__init__()
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(context_dim, dim, bias=False)
        self.to_v = nn.Linear(context_dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, context):
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        attn = (q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5).softmax(dim=-1)
        return self.to_out(attn @ v)

class TinyUNet(nn.Module):
    def __init__(self, channels=4, dim=32, context_dim=24):
        super().__init__()
        self.conv_in = nn.Conv2d(channels, dim, 3, padding=1)
        self.attn = Attention(dim, context_dim)
        self.conv_out = nn.Conv2d(dim, channels, 3, padding=1)

    def forward(self, sample, encoder_hidden_states):
        h = self.conv_in(sample)
        b, c, hh, ww = h.shape
        seq = h.flatten(2).transpose(1, 2)
        seq = seq + self.attn(seq, encoder_hidden_states)
        h = seq.transpose(1, 2).reshape(b, c, hh, ww)
        return self.conv_out(h)

def add_adapter(model, target_modules=("to_q", "to_v")):
    for module in list(model.modules()):
        for name in target_modules:
            child = getattr(module, name, None)
            if isinstance(child, nn.Linear):
                setattr(module, name, LoRALinear(child))

unet = TinyUNet()
unet.requires_grad_(False)
unet.to("cuda:0")
add_adapter(unet)

noisy_latents = torch.randn(2, 4, 8, 8, device="cuda:0")
encoder_hidden_states = torch.randn(2, 7, 24, device="cuda:0")
'''
CELL = '''
model_pred = unet(noisy_latents, encoder_hidden_states)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["unet.attn.to_q.lora_down", "unet.attn.to_q.lora_up",
            "unet.attn.to_v.lora_down", "unet.attn.to_v.lora_up"]
FIX = "namespace"
REFERENCE_FIX = '''
unet.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
