"""sd-webui-additional-networks under `--medvram`: the LoRA modules hooked into the text encoder stay on the CPU while the webui's hook sends the encoder to the GPU.

Source: https://github.com/kohya-ss/sd-webui-additional-networks/issues/7
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument mat2 in method wrapper_mm)". A user: "you can't use the
extension with --medvram or --lowvram ... it offloads some of the work to the CPU"; PR 12 ("Fix crash
on --medvram/--lowvram") contributes the one-line fix from rentry.org/HDGLoRaIssues upstream
(the stand-in's fix: put the LoRA network on the device). The LoRA network replaces the forward of the text encoder's Linear layers but is not a
submodule of the SD model, so the webui's `send_me_to_gpu` pre-hook moves the encoder and not the
LoRA weights. Stand-in: lowvram's hook, a small text encoder, kohya's LoRAModule/LoRANetwork.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

cpu = torch.device("cpu")
device = torch.device("cuda:0")

class LoRAModule(nn.Module):
    def __init__(self, lora_name, org_module, multiplier=1.0, lora_dim=4, alpha=1):
        super().__init__()
        self.lora_name = lora_name
        self.lora_down = nn.Linear(org_module.in_features, lora_dim, bias=False)
        self.lora_up = nn.Linear(lora_dim, org_module.out_features, bias=False)
        self.multiplier = multiplier
        self.scale = alpha / lora_dim
        self.org_module = [org_module]

    def apply_to(self):
        self.org_forward = self.org_module[0].forward
        self.org_module[0].forward = self.forward

    def forward(self, x):
        return self.org_forward(x) + self.lora_up(self.lora_down(x)) * self.multiplier * self.scale

class LoRANetwork(nn.Module):
    def __init__(self, text_encoder, multiplier=1.0):
        super().__init__()
        self.text_encoder_loras = nn.ModuleList(
            [LoRAModule(f"lora_te_{name}", m, multiplier) for name, m in text_encoder.named_modules()
             if isinstance(m, nn.Linear)])

    def apply_to(self):
        for lora in self.text_encoder_loras:
            lora.apply_to()

class TextEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(49408, 32)
        self.q_proj = nn.Linear(32, 32)
        self.out_proj = nn.Linear(32, 32)

    def forward(self, tokens):
        return self.out_proj(torch.tanh(self.q_proj(self.embed(tokens))))

def send_me_to_gpu(module, _):                       # modules/lowvram.py (medvram)
    module.to(device)

text_encoder = TextEncoder()                          # sd_model.cond_stage_model.transformer, in CPU RAM
text_encoder.register_forward_pre_hook(send_me_to_gpu)
network = LoRANetwork(text_encoder, multiplier=0.8)   # created and loaded on the CPU
network.apply_to()
tokens = torch.randint(0, 49408, (1, 77)).to(device)
'''
CELL = '''
c = text_encoder(tokens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["network"]
FIX = "namespace"
REFERENCE_FIX = '''
network.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
