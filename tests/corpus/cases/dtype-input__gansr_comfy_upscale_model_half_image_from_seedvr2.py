"""ComfyUI "Upscale Image (using Model)": an IMAGE left in float16 by the SeedVR2 upscaler reaches an fp32 ESRGAN-type upscale model.

Source: https://github.com/Comfy-Org/ComfyUI/issues/9958
Chaining the core UpscaleImageWithModel node after a SeedVR2 upscale failed inside
`comfy.utils.tiled_scale(in_img, lambda a: upscale_model(a), ...)` with "Input type (struct c10::Half)
and bias type (float) should be the same": the node moves the image to the device
(`image.movedim(-1,-3).to(device)`) but does not cast it, and the SeedVR2 output was a half-precision
IMAGE while the upscale model's weights are float32. Casting the image to float32 lets the node run.
The upscale model (RRDB/ESRGAN-like) and `tiled_scale` are small stand-ins (one tile); runs on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class UpscaleModel(nn.Module):        # spandrel ImageModelDescriptor around an ESRGAN-type net
    def __init__(self, scale=2):
        super().__init__()
        self.scale = scale
        self.model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                   nn.Conv2d(16, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale))
    def forward(self, x):
        return self.model(x)

def tiled_scale(samples, function, tile_x=512, tile_y=512, overlap=32, upscale_amount=4, out_channels=3, pbar=None):
    return function(samples)           # one tile is enough for the small test image

class ImageUpscaleWithModel:
    def upscale(self, upscale_model, image):
        device = torch.device("cpu")   # model_management.get_torch_device()
        upscale_model.to(device)
        in_img = image.movedim(-1,-3).to(device)
        tile = 512
        overlap = 32
        s = tiled_scale(in_img, lambda a: upscale_model(a), tile_x=tile, tile_y=tile, overlap=overlap, upscale_amount=upscale_model.scale)
        s = torch.clamp(s.movedim(-3,-1), min=0, max=1.0)
        return (s,)

upscale_model = UpscaleModel(scale=2)          # UpscaleModelLoader: fp32 weights
node = ImageUpscaleWithModel()
image = torch.rand(1, 24, 24, 3).half()        # SeedVR2 output IMAGE [B, H, W, C], left in float16
'''
CELL = '''
(upscaled,) = node.upscale(upscale_model, image)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["image"]
FIX = "namespace"
REFERENCE_FIX = '''
image = image.float()
'''
REFERENCE_EDIT = None
CLEAN = False
