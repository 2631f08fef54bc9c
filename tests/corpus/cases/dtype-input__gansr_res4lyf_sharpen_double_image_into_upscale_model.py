"""ComfyUI: a float64 IMAGE from RES4LYF's image-sharpen node reaches the fp32 upscale model of Ultimate SD Upscale.

Source: https://github.com/ClownsharkBatwing/RES4LYF/issues/145
Putting the image sharpen node before Ultimate SD Upscale made the upscale step fail with "Input type
(double) and bias type (float) should be the same"; with the Film Grain node inserted after the
sharpen node (which hands back a float32 IMAGE) the error went away. The sharpened IMAGE is a double
tensor (the filter is computed in float64) and the ESRGAN-type upscale model has float32 weights; the
image must be float32 before upscaling. Sharpen filter, upscale model and the upscaler's model call
are small stand-ins; runs on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def image_sharpen(image, amount=0.5):
    # sharpen node: unsharp mask computed in float64 and returned as the IMAGE
    img = image.numpy().astype(np.float64)
    blurred = (img + np.roll(img, 1, axis=1) + np.roll(img, -1, axis=1) + np.roll(img, 1, axis=2) + np.roll(img, -1, axis=2)) / 5.0
    return torch.from_numpy(np.clip(img + amount * (img - blurred), 0.0, 1.0))

class UpscaleModel(nn.Module):
    def __init__(self, scale=2):
        super().__init__()
        self.scale = scale
        self.model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                   nn.Conv2d(16, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale))
    def forward(self, x):
        return self.model(x)

def upscale_with_model(upscale_model, image):      # what Ultimate SD Upscale's "upscale_by_model" does
    in_img = image.movedim(-1, -3)
    s = upscale_model(in_img)
    return torch.clamp(s.movedim(-3, -1), min=0, max=1.0)

upscale_model = UpscaleModel(scale=2)
loaded = torch.rand(1, 24, 24, 3)                  # LoadImage IMAGE (float32)
sharpened = image_sharpen(loaded)
'''
CELL = '''
upscaled = upscale_with_model(upscale_model, sharpened)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["sharpened"]
FIX = "namespace"
REFERENCE_FIX = '''
sharpened = sharpened.float()
'''
REFERENCE_EDIT = None
CLEAN = False
