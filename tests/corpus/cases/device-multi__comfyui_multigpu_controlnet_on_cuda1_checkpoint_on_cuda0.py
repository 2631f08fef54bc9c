"""ComfyUI-MultiGPU: the checkpoint is loaded on cuda:0 and the ControlNet on cuda:1; the ControlNet gets the cuda:0 latents.

Source: https://github.com/pollockjj/ComfyUI-MultiGPU/issues/73
With CheckpointLoaderSimpleMultiGPU and ControlNetLoaderMultiGPU on two RTX A4000s, putting the
checkpoint and the ControlNet on different GPUs failed with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cuda:1!"; same GPU, or GPU + CPU, worked. The
maintainer (issue 8): loading a ControlNet and its model on separate devices is not supported; the
ControlNet is applied to the model's own latents. Stand-in: a small UNet and ControlNet, the
ControlNet object's `get_control` as ComfyUI calls it from the sampler.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class ControlNetModel(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.input_hint_block = nn.Conv2d(3, ch, 3, stride=8, padding=1)
        self.input_block = nn.Conv2d(4, ch, 3, padding=1)
        self.zero_conv = nn.Conv2d(ch, 4, 1)

    def forward(self, x, hint, timesteps, context):
        h = self.input_block(x) + self.input_hint_block(hint)
        return [self.zero_conv(h)]

class ControlNet:
    def __init__(self, control_model, load_device, strength=1.0):
        self.control_model = control_model
        self.load_device = load_device
        self.strength = strength
        self.cond_hint_original = None

    def set_cond_hint(self, image, strength):
        self.cond_hint_original = image.movedim(-1, 1)
        self.strength = strength
        return self

    def get_control(self, x_noisy, t, context):
        cond_hint = self.cond_hint_original.to(self.load_device)
        control = self.control_model(x=x_noisy, hint=cond_hint, timesteps=t, context=context)
        return [c * self.strength for c in control]

class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x, t, context, control=None):
        h = self.conv_in(x)
        return h + control[0] if control is not None else h

def load_checkpoint(device):                   # CheckpointLoaderSimpleMultiGPU
    return UNet().to(device)

def load_controlnet(device):                   # ControlNetLoaderMultiGPU
    return ControlNet(ControlNetModel().to(device), torch.device(device))

model = load_checkpoint("cuda:0")
controlnet = load_controlnet("cuda:1")
image = torch.rand(1, 64, 64, 3)                                # LoadImage (CPU)
controlnet = controlnet.set_cond_hint(image, 0.8)               # ControlNetApply
latent = torch.randn(1, 4, 8, 8, device="cuda:0")
t = torch.tensor([999.0], device="cuda:0")
context = torch.randn(1, 77, 32, device="cuda:0")
'''
CELL = '''
control = controlnet.get_control(latent, t, context)
out = model(latent, t, context, control=control)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["controlnet"]
FIX = "namespace"
REFERENCE_FIX = '''
controlnet.control_model.to("cuda:0")
controlnet.load_device = torch.device("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
