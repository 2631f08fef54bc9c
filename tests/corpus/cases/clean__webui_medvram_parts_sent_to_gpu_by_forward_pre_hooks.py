"""Look-alike: AUTOMATIC1111 `--medvram` keeps the model's parts on the CPU and a forward pre-hook sends each part to the GPU when it is called.

Source: https://github.com/Mikubill/sd-webui-controlnet/issues/22
Asked how the webui runs a 5.7 GB checkpoint on 4 GB, the extension author quotes the webui:
"`--medvram`: Makes the Stable Diffusion model consume less VRAM by splitting it into three parts -
cond ..., first_stage ..., and unet ... and making it so that only one is in VRAM at all times,
sending others to CPU RAM." modules/lowvram.py registers `send_me_to_gpu` as a forward pre-hook on
each part: at call time the part moves to the GPU and the previous one back to the CPU. Between
calls most of the model sits on the CPU while the latents and tokens are on the GPU, by design.
Stand-in: lowvram.setup_for_low_vram (medvram branch) on a small LatentDiffusion.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

cpu = torch.device("cpu")
device = torch.device("cuda:0")                    # modules.devices.device

class FrozenCLIPEmbedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = nn.Sequential(nn.Embedding(49408, 32), nn.LayerNorm(32), nn.Linear(32, 32))

    def forward(self, tokens):
        return self.transformer(tokens.to(device))

class UNetModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 32, 3, padding=1)
        self.ctx = nn.Linear(32, 32)
        self.conv_out = nn.Conv2d(32, 4, 3, padding=1)

    def forward(self, x, t, context):
        h = self.conv_in(x) + self.ctx(context.mean(1))[:, :, None, None]
        return self.conv_out(h)

class LatentDiffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond_stage_model = FrozenCLIPEmbedder()
        self.first_stage_model = nn.Conv2d(4, 3, 3, padding=1)
        self.model = UNetModel()

    def get_learned_conditioning(self, c):
        return self.cond_stage_model(c)

def setup_for_low_vram(sd_model, use_medvram):
    module_in_gpu = None

    def send_me_to_gpu(module, _):
        nonlocal module_in_gpu
        if module_in_gpu == module:
            return
        if module_in_gpu is not None:
            module_in_gpu.to(cpu)
        module.to(device)
        module_in_gpu = module

    sd_model.to(cpu)                                # everything starts in CPU RAM
    sd_model.cond_stage_model.transformer.register_forward_pre_hook(send_me_to_gpu)
    sd_model.first_stage_model.register_forward_pre_hook(send_me_to_gpu)
    if use_medvram:
        sd_model.model.register_forward_pre_hook(send_me_to_gpu)

sd_model = LatentDiffusion()
setup_for_low_vram(sd_model, use_medvram=True)
tokens = torch.randint(0, 49408, (1, 77))
x = torch.randn(1, 4, 8, 8, device=device)
t = torch.tensor([999], device=device)
'''
CELL = '''
c = sd_model.get_learned_conditioning(tokens)
eps = sd_model.model(x, t, c)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
