"""Look-alike: ComfyUI keeps LoRA patch tensors on the CPU and computes each weight's delta on that weight's device when patching.

Source: https://github.com/Comfy-Org/ComfyUI/pull/1558
"Do lora cast on GPU": ModelPatcher holds the LoRA up/down matrices (as loaded from the
safetensors file, on the CPU, often float16) in its `patches` dict; `patch_model` moves the target
weight to the load device, casts a float32 working copy there, and brings each LoRA matrix to the
weight's device and dtype inside `calculate_weight` before the matmul (the PR asked for the cast to
happen on the GPU; it was implemented in the core). CPU patches next to a GPU model, moved at use;
the cell runs. Stand-in: ModelPatcher's add_patches / patch_model and the LoRA branch of
calculate_weight.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")

def calculate_weight(patches, weight, key):
    for strength, (up, down, alpha) in patches:
        mat1 = up.to(weight.device, dtype=torch.float32)
        mat2 = down.to(weight.device, dtype=torch.float32)
        scale = alpha / mat2.shape[0]
        weight = weight + strength * scale * torch.mm(mat1, mat2).reshape(weight.shape).type(weight.dtype)
    return weight

class ModelPatcher:
    def __init__(self, model, load_device):
        self.model = model
        self.load_device = load_device
        self.patches = {}

    def add_patches(self, patches, strength_patch=1.0):
        for k, v in patches.items():
            self.patches.setdefault(k, []).append((strength_patch, v))

    def patch_model(self):
        state = self.model.state_dict()
        for key, p in self.patches.items():
            weight = state[key].to(self.load_device)
            temp_weight = weight.to(torch.float32, copy=True)
            out_weight = calculate_weight(p, temp_weight, key).to(weight.dtype)
            self.model.get_submodule(key.rsplit(".", 1)[0]).weight = nn.Parameter(out_weight, requires_grad=False)
        self.model.to(self.load_device)
        return self.model

unet = nn.Sequential(nn.Linear(32, 64), nn.SiLU(), nn.Linear(64, 32)).half()
patcher = ModelPatcher(unet, device)
lora = {"0.weight": (torch.randn(64, 4).half(), torch.randn(4, 32).half(), 4.0),     # loaded on the CPU
        "2.weight": (torch.randn(32, 4).half(), torch.randn(4, 64).half(), 4.0)}
patcher.add_patches(lora, strength_patch=0.8)
x = torch.randn(2, 32, device=device, dtype=torch.float16)
'''
CELL = '''
model = patcher.patch_model()
y = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
