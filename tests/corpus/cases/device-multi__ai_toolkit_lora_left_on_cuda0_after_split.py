"""ai-toolkit split_model_over_gpus: LoRA modules are built after the split and stay on cuda:0.

Source: https://github.com/ostris/ai-toolkit/issues/1031
"Expected all tensors to be on the same device, but got mat2 is on cuda:0, different from other
tensors on cuda:1" in `network_mixins.py forward -> lora_down(x)`. The reporter's patch notes: the
splitter first moves the transformer blocks to cuda:N, then the LoRA modules are created on the
default cuda:0, so the first training step fails in a block living on cuda:1 (follow-up: issue
1048). Stand-in: two blocks split over cuda:0/cuda:1 with a hand-off in forward; a LoRA network
that wraps each block's Linear (`org_forward` + up(down(x)) * multiplier), kept in a plain list.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class Block(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return x + torch.relu(self.proj(x))

class SplitTransformer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim), Block(dim)])

    def split_model_over_gpus(self, devices):
        self.devices = devices
        for blk, dev in zip(self.blocks, devices):
            blk.to(dev)

    def forward(self, x):
        for blk, dev in zip(self.blocks, self.devices):
            x = blk(x.to(dev))
        return x

class LoRAModule(nn.Module):
    def __init__(self, lora_name, org_module, rank=4, multiplier=1.0):
        super().__init__()
        self.lora_name = lora_name
        self.lora_down = nn.Linear(org_module.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, org_module.out_features, bias=False)
        self.multiplier = multiplier
        self.org_forward = org_module.forward
        org_module.forward = self.forward

    def forward(self, x):
        return self.org_forward(x) + self.lora_up(self.lora_down(x)) * self.multiplier

class LoRASpecialNetwork(nn.Module):
    def __init__(self, transformer, device):
        super().__init__()
        self.unet_loras = []
        for i, blk in enumerate(transformer.blocks):
            lora = LoRAModule(f"lora_transformer_blocks_{i}_proj", blk.proj).to(device)
            self.unet_loras.append(lora)
            self.add_module(lora.lora_name, lora)

transformer = SplitTransformer()
transformer.split_model_over_gpus([torch.device("cuda:0"), torch.device("cuda:1")])
network = LoRASpecialNetwork(transformer, device=torch.device("cuda:0"))
latents = torch.randn(2, 16).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    pred = transformer(latents)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["network.unet_loras[1]"]
FIX = "namespace"
REFERENCE_FIX = '''
network.unet_loras[1].to("cuda:1")
'''
REFERENCE_EDIT = None
CLEAN = False
