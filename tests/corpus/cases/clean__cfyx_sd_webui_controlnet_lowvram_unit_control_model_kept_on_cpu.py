"""Look-alike: sd-webui-controlnet's "Low VRAM" unit keeps the ControlNet on the CPU and moves it to the GPU only inside the hooked UNet forward.

Source: https://github.com/Mikubill/sd-webui-controlnet (scripts/cldm.py, PlugableControlModel: `if not self.lowvram:
self.control_model.to(devices.get_device_for("controlnet"))`, and in the hooked `forward2`:
`if self.lowvram: self.control_model.to(...)` ... `finally: if self.lowvram: self.control_model.cpu()`)
With the unit's low-VRAM option the control model's weights sit on the CPU next to a GPU UNet and a GPU
hint between steps; the hook moves it to the GPU for the call and back afterwards. The cell runs.
Stand-in: the extension's hook()/forward2 (same names, after the medvram fix) with a tiny UNet/ControlNet.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import types
import torch
from torch import nn

cpu = torch.device("cpu")
device = torch.device("cuda:0")
cmd_opts = types.SimpleNamespace(lowvram=False, medvram=False)

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
                if cmd_opts.lowvram:
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

unet = UNetModel().to(device)                       # shared.sd_model.model.diffusion_model (normal VRAM)
control_net = PlugableControlModel(lowvram=True)    # unit's "Low VRAM" box: ControlNet weights stay on the CPU
control_net.hook(unet, None)
control_net.notify(torch.rand(1, 3, 64, 64, device=device), 1.0)
x = torch.randn(1, 4, 16, 16, device=device)
timesteps = torch.tensor([999], device=device)
context = torch.randn(1, 77, 64, device=device)
'''
CELL = '''
eps = unet(x, timesteps=timesteps, context=context)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
