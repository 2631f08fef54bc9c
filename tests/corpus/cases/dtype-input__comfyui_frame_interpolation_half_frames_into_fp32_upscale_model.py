"""ComfyUI-Frame-Interpolation returns its interpolated frames in float16; "Upscale Image (using Model)" runs a float32 ESRGAN on them.

Source: https://github.com/Fannovel16/ComfyUI-Frame-Interpolation/issues/48
"RuntimeError: Input type (struct c10::Half) and bias type (float) should be the same" from
nodes_upscale_model.py `upscale`: "The image output from the interpolation nodes (FILM, Fortuna,
etc) seem to be in half format, when they should be full float"; without the interpolation node the
same images upscale, save and preview fine. ComfyUI IMAGE tensors are float32 by convention, and
ImageUpscaleWithModel only moves the image to the device. Run on the CPU (a dtype bug); the FILM
interpolator and the upscale model are small stand-ins, tiling left out.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

device = torch.device("cpu")

class FILMInterpolator(nn.Module):
    def __init__(self):
        super().__init__()
        self.flow = nn.Conv2d(6, 3, 3, padding=1)

    def forward(self, x0, x1, timestep):
        return x0 + timestep * torch.tanh(self.flow(torch.cat([x0, x1], dim=1))) * (x1 - x0)

class FILM_VFI:
    def __init__(self):
        self.model = FILMInterpolator().half().eval()          # inference in fp16

    def vfi(self, frames, multiplier=2):
        frames = frames.movedim(-1, 1).half()
        out = [frames[:1]]
        for i in range(frames.shape[0] - 1):
            for k in range(1, multiplier):
                out.append(self.model(frames[i:i + 1], frames[i + 1:i + 2], k / multiplier))
            out.append(frames[i + 1:i + 2])
        return (torch.cat(out).movedim(1, -1),)                 # returned as float16 IMAGE

class UpscaleModel(nn.Module):                                  # ESRGAN-like, loaded in float32
    scale = 2

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(16, 12, 3, padding=1))
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        return self.shuffle(self.body(x))

class ImageUpscaleWithModel:
    def upscale(self, upscale_model, image):
        upscale_model.to(device)
        in_img = image.movedim(-1, -3).to(device)
        s = upscale_model(in_img)
        upscale_model.to("cpu")
        s = torch.clamp(s.movedim(-3, -1), min=0, max=1.0)
        return (s,)

video_frames = torch.rand(3, 32, 32, 3)                        # LoadVideo -> IMAGE batch (float32)
interpolated = FILM_VFI().vfi(video_frames, multiplier=2)[0]
upscale_model = UpscaleModel()                                  # UpscaleModelLoader
'''
CELL = '''
upscaled = ImageUpscaleWithModel().upscale(upscale_model, interpolated)[0]
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["interpolated"]
FIX = "namespace"
REFERENCE_FIX = '''
interpolated = interpolated.float()
'''
REFERENCE_EDIT = None
CLEAN = False
