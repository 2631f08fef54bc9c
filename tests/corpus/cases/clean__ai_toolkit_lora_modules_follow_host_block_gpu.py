"""Look-alike: LoRA modules of a model split over two GPUs, each placed on its host block's GPU.

Source: https://github.com/ostris/ai-toolkit/issues/1048
The reporter's working layout for `split_model_over_gpus`: after the splitter moved the transformer
blocks to cuda:0/cuda:1, each LoRA module is synchronised once to "the host device" of the module
it wraps (`next(iter(host.parameters())).device`), before the optimizer is created. Two GPUs, and
LoRA weights on both, on purpose; nothing to report. Stand-in: the same two-block split and LoRA
wrapper as the failing case, with the device sync.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
    def __init__(self, transformer):
        super().__init__()
        self.unet_loras = []
        for i, blk in enumerate(transformer.blocks):
            host_device = next(iter(blk.proj.parameters())).device
            lora = LoRAModule(f"lora_transformer_blocks_{i}_proj", blk.proj).to(host_device)
            self.unet_loras.append(lora)
            self.add_module(lora.lora_name, lora)

transformer = SplitTransformer()
transformer.split_model_over_gpus([torch.device("cuda:0"), torch.device("cuda:1")])
network = LoRASpecialNetwork(transformer)
latents = torch.randn(2, 16).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    pred = transformer(latents)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
