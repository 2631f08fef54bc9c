"""Look-alike: ComfyUI's "Upscale Image (using Model)" runs the upscaler on the GPU tile by tile and accumulates the result in CPU buffers.

Source: https://github.com/Comfy-Org/ComfyUI (comfy/utils.py `tiled_scale` / `tiled_scale_multidim`,
comfy_extras/nodes_upscale_model.py `ImageUpscaleWithModel.upscale`)
The node moves the IMAGE to the model's device (`in_img = image.movedim(-1,-3).to(device)`), and
`tiled_scale(..., output_device="cpu")` allocates `out`/`out_div` on the CPU, runs each GPU tile
through the model and copies it back with `function(s_in).to(output_device)` before the feathered
add. A GPU model, a GPU input slice and CPU accumulators meet in one function, by design; the cell runs.
Stand-in: the tiled_scale loop (same names) and a tiny 2x ESRGAN-style upscaler.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class UpscaleNet(nn.Module):                      # spandrel ESRGAN stand-in, scale 2
    scale = 2
    def __init__(self):
        super().__init__()
        self.body = nn.Conv2d(3, 12, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)
    def forward(self, x):
        return self.shuffle(self.body(x))

@torch.inference_mode()
def tiled_scale(samples, function, tile_x=64, tile_y=64, overlap=8, upscale_amount=4, out_channels=3, output_device="cpu"):
    output = torch.empty((samples.shape[0], out_channels, round(samples.shape[2] * upscale_amount), round(samples.shape[3] * upscale_amount)), device=output_device)
    for b in range(samples.shape[0]):
        s = samples[b:b+1]
        out = torch.zeros((s.shape[0], out_channels, round(s.shape[2] * upscale_amount), round(s.shape[3] * upscale_amount)), device=output_device)
        out_div = torch.zeros((s.shape[0], out_channels, round(s.shape[2] * upscale_amount), round(s.shape[3] * upscale_amount)), device=output_device)
        for y in range(0, s.shape[2], tile_y - overlap):
            for x in range(0, s.shape[3], tile_x - overlap):
                x = max(0, min(s.shape[-1] - overlap, x))
                y = max(0, min(s.shape[-2] - overlap, y))
                s_in = s[:, :, y:y+tile_y, x:x+tile_x]
                ps = function(s_in).to(output_device)
                mask = torch.ones_like(ps)
                oy, ox = round(y * upscale_amount), round(x * upscale_amount)
                out[:, :, oy:oy+ps.shape[2], ox:ox+ps.shape[3]] += ps * mask
                out_div[:, :, oy:oy+ps.shape[2], ox:ox+ps.shape[3]] += mask
        output[b:b+1] = out / out_div
    return output

class ImageUpscaleWithModel:
    def upscale(self, upscale_model, image, device, tile=32, overlap=8):
        in_img = image.movedim(-1, -3).to(device)
        s = tiled_scale(in_img, lambda a: upscale_model(a), tile_x=tile, tile_y=tile, overlap=overlap, upscale_amount=upscale_model.scale)
        s = torch.clamp(s.movedim(-3, -1), min=0, max=1.0)
        return (s,)

device = torch.device("cuda:0")
upscale_model = UpscaleNet().to(device).eval()      # load_models_gpu: the upscaler sits on the GPU
image = torch.rand(1, 48, 48, 3)                    # IMAGE from VAEDecode, on the intermediate device (CPU)
node = ImageUpscaleWithModel()
'''
CELL = '''
upscaled = node.upscale(upscale_model, image, device)[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
