"""ComfyUI_Human_Parts returns its MASK as uint8; VAE Encode (for Inpainting) grows it with a float kernel.

Source: https://github.com/metal3d/ComfyUI_Human_Parts/issues/5
Feeding the Human Parts detector's mask into "VAE Encode (for inpainting)" failed with "RuntimeError:
expected scalar type Byte but found Float". The node ends with `torch.from_numpy(mask.astype(np.uint8))`,
so the MASK is a 0/1 uint8 tensor, and VAEEncodeForInpaint's `conv2d(mask.round(), kernel_tensor)` uses a
float32 kernel. The maintainer: transform the mask into a (float) binary mask with a conversion node
before using it. Run on the CPU (a dtype bug). Stand-in: the detector's output step (no ONNX model),
VAEEncodeForInpaint.encode (same names) and a tiny VAE.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

class VAE:                                          # comfy.sd.VAE (tiny stand-in)
    downscale_ratio = 8
    def __init__(self):
        self.first_stage_model = nn.Conv2d(3, 4, 8, stride=8)
    def encode(self, pixels):
        return self.first_stage_model(pixels.movedim(-1, 1))

class VAEEncodeForInpaint:
    def encode(self, vae, pixels, mask, grow_mask_by=6):
        x = (pixels.shape[1] // vae.downscale_ratio) * vae.downscale_ratio
        y = (pixels.shape[2] // vae.downscale_ratio) * vae.downscale_ratio
        mask = torch.nn.functional.interpolate(mask.reshape((-1, 1, mask.shape[-2], mask.shape[-1])), size=(pixels.shape[1], pixels.shape[2]), mode="bilinear")
        pixels = pixels.clone()
        if grow_mask_by == 0:
            mask_erosion = mask
        else:
            kernel_tensor = torch.ones((1, 1, grow_mask_by, grow_mask_by))
            padding = math.ceil((grow_mask_by - 1) / 2)
            mask_erosion = torch.clamp(torch.nn.functional.conv2d(mask.round(), kernel_tensor, padding=padding), 0, 1)
        m = (1.0 - mask.round()).squeeze(1)
        for i in range(3):
            pixels[:, :, :, i] -= 0.5
            pixels[:, :, :, i] *= m
            pixels[:, :, :, i] += 0.5
        t = vae.encode(pixels)
        return ({"samples": t, "noise_mask": (mask_erosion[:, :, :x, :y].round())},)

def human_parts_mask(image):                        # detector/human_parts.py get_mask, after the ONNX run
    detected = np.zeros((image.shape[1], image.shape[2]), dtype=np.float32)
    detected[16:48, 16:48] = 1.0                    # face / hair pixels
    mask = detected[None, None]
    return (torch.from_numpy(mask.astype(np.uint8)), int(mask.sum()))

vae = VAE()
image = torch.rand(1, 64, 64, 3)                    # LoadImage
mask, _ = human_parts_mask(image)                   # HumanParts detector MASK output
node = VAEEncodeForInpaint()
'''
CELL = '''
latent = node.encode(vae, image, mask, grow_mask_by=6)[0]
'''
EXPECT_ERROR = ("expected scalar type", "should be the same")
CULPRITS = ["mask"]
FIX = "namespace"
REFERENCE_FIX = '''
mask = mask.float()
'''
REFERENCE_EDIT = None
CLEAN = False
