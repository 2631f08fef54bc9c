"""A1111 with `--use-cpu all`: the SD model runs on the CPU, but ControlNet asks `get_device_for("controlnet")`, which ignores "all", and goes to cuda.

Source: https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/14097
"Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
(when checking argument for argument weight in method wrapper_CUDA___slow_conv2d_forward)" with
ControlNet. A commenter traced it: with `--use-cpu all` the webui puts its own models on the CPU,
but sd-webui-controlnet calls `devices.get_device_for("controlnet")`, and
`if task in shared.cmd_opts.use_cpu: return cpu` does not treat "all" as covering it, so the control
model goes to the GPU; the fix makes `get_device_for` honour "all" (or pass
`--use-cpu all controlnet`). Stand-in: modules.devices, a small UNet and ControlNet, the hook.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
import torch
from torch import nn

cmd_opts = types.SimpleNamespace(use_cpu=["all"])
cpu = torch.device("cpu")

def get_optimal_device():
    return torch.device("cuda:0")

def get_device_for(task):
    if task in cmd_opts.use_cpu:
        return cpu
    return get_optimal_device()

device = cpu if any(y in cmd_opts.use_cpu for y in ["sd", "all"]) else get_optimal_device()

class ControlNetModel(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.input_hint_block = nn.Conv2d(3, ch, 3, stride=8, padding=1)
        self.input_block = nn.Conv2d(4, ch, 3, padding=1)
        self.zero_conv = nn.Conv2d(ch, 4, 1)

    def forward(self, x, hint, timesteps, context):
        return self.zero_conv(self.input_block(x) + self.input_hint_block(hint))

class UNetModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x, timesteps, context, control=None):
        h = self.conv_in(x)
        return h if control is None else h + control

def hooked_forward(unet, control_model, x, timesteps, context, hint):
    hint = hint.to(get_device_for("controlnet"))
    control = control_model(x=x, hint=hint, timesteps=timesteps, context=context)
    return unet(x, timesteps, context, control=control)

unet = UNetModel().to(device)                                        # sd_model on the CPU
control_model = ControlNetModel().to(get_device_for("controlnet"))    # sd-webui-controlnet's model
x = torch.randn(1, 4, 8, 8, device=device)
timesteps = torch.tensor([999.0], device=device)
context = torch.randn(1, 77, 32, device=device)
hint = torch.rand(1, 3, 64, 64)
'''
CELL = '''
out = hooked_forward(unet, control_model, x, timesteps, context, hint)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["control_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("if task in cmd_opts.use_cpu:", 'if task in cmd_opts.use_cpu or "all" in cmd_opts.use_cpu:')
CLEAN = False
