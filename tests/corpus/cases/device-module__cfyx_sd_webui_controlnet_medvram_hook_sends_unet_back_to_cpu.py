"""sd-webui-controlnet (Feb 2023) under --medvram: the ControlNet UNet hook calls lowvram.send_everything_to_cpu() and sends the UNet back to the CPU mid-forward.

Source: https://github.com/Mikubill/sd-webui-controlnet/issues/16
txt2img with a ControlNet unit failed in the UNet's time embedding with "Expected all tensors to be on
the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument
mat1 in method wrapper_addmm)". The maintainer fixed it in abb2a08 "fix: medvram compat (#16)":
`if cmd_opts.lowvram or cmd_opts.medvram:` became `if cmd_opts.lowvram:`. Under --medvram the webui
moves the whole UNet to the GPU in a forward pre-hook; the extension's replaced `forward2` then called
`send_everything_to_cpu()`, which moved that UNet (the module in GPU) back to the CPU before it ran.
Stand-in: webui's modules.lowvram medvram hook, cmd_opts, and the extension's hook()/forward2 with a tiny UNet.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import types
import torch
from torch import nn

cpu = torch.device("cpu")
device = torch.device("cuda:0")
cmd_opts = types.SimpleNamespace(lowvram=False, medvram=True)

class lowvram:                                     # modules/lowvram.py (stand-in)
    module_in_gpu = None

    @staticmethod
    def send_everything_to_cpu():
        if lowvram.module_in_gpu is not None:
            lowvram.module_in_gpu.to(cpu)
        lowvram.module_in_gpu = None

    @staticmethod
    def send_me_to_gpu(module, _):
        if lowvram.module_in_gpu == module:
            return
        if lowvram.module_in_gpu is not None:
            lowvram.module_in_gpu.to(cpu)
        module.to(device)
        lowvram.module_in_gpu = module

    @staticmethod
    def setup_for_low_vram(diffusion_model):        # medvram: the whole UNet moves as one part
        diffusion_model.register_forward_pre_hook(lowvram.send_me_to_gpu)

def timestep_embedding(timesteps, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32, device=timesteps.device) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)

class UNetModel(nn.Module):
    def __init__(self, model_channels=32):
        super().__init__()
        self.model_channels = model_channels
        self.time_embed = nn.Sequential(nn.Linear(model_channels, 64), nn.SiLU(), nn.Linear(64, 64))
        self.conv_in = nn.Conv2d(4, 64, 3, padding=1)
        self.out = nn.Conv2d(64, 4, 3, padding=1)

class ControlNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hint = nn.Conv2d(3, 64, 3, padding=1)
    def forward(self, x, hint, timesteps, context):
        return [nn.functional.interpolate(self.hint(hint), size=x.shape[-2:])]

class PlugableControlModel(nn.Module):
    def __init__(self, weight=1.0, lowvram=False):
        super().__init__()
        self.control_model = ControlNet()
        self.lowvram = lowvram
        self.weight = weight
        self.hint_cond = None
        if not self.lowvram:
            self.control_model.to(device)

    def hook(self, model, parent_model):
        outer = self

        def forward(self, x, timesteps=None, context=None, **kwargs):
            control = outer.control_model(x=x, hint=outer.hint_cond, timesteps=timesteps, context=context)
            t_emb = timestep_embedding(timesteps, self.model_channels)
            emb = self.time_embed(t_emb)
            h = self.conv_in(x) + emb[:, :, None, None]
            h = h + control.pop() * outer.weight
            return self.out(h)

        def forward2(*args, **kwargs):
            try:
                if cmd_opts.lowvram or cmd_opts.medvram:
                    lowvram.send_everything_to_cpu()
                if self.lowvram:
                    self.control_model.to(device)
                return forward(*args, **kwargs)
            finally:
                if self.lowvram:
                    self.control_model.cpu()

        model._original_forward = model.forward
        model.forward = forward2.__get__(model, UNetModel)

    def notify(self, cond_like, weight):
        self.hint_cond = cond_like
        self.weight = weight

unet = UNetModel()                                  # shared.sd_model.model.diffusion_model, on the CPU under --medvram
lowvram.setup_for_low_vram(unet)
control_net = PlugableControlModel()
control_net.hook(unet, None)
control_net.notify(torch.rand(1, 3, 64, 64, device=device), 1.0)
x = torch.randn(1, 4, 16, 16, device=device)
timesteps = torch.tensor([999], device=device)
context = torch.randn(1, 77, 64, device=device)
'''
CELL = '''
eps = unet(x, timesteps=timesteps, context=context)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["unet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("if cmd_opts.lowvram or cmd_opts.medvram:", "if cmd_opts.lowvram:")
CLEAN = False
