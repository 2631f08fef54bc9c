"""ComfyUI SolidMask creates its mask on a hard-coded "cpu"; MaskComposite combines it with a GPU mask under --gpu-only.

Source: https://github.com/Comfy-Org/ComfyUI/pull/13296
With `--gpu-only`, EmptyImage now allocates on `intermediate_device()` (the GPU) and ImageToMask keeps
its input's device, but `SolidMask.solid` still did `torch.full((1, height, width), value,
dtype=torch.float32, device="cpu")`. MaskComposite does not align devices, so
`destination[...] * source` raised "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!". The merged fix uses `intermediate_device()` in SolidMask.
Stand-in: the four nodes reduced to their tensor code; the composite covers the whole mask, so
the slice assignment back into `output` is left out.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def intermediate_device():                       # comfy.model_management.intermediate_device()
    return torch.device("cuda:0")                # --gpu-only

class EmptyImage:
    def generate(self, width, height, batch_size=1, color=0):
        r = torch.full([batch_size, height, width, 1], ((color >> 16) & 0xFF) / 0xFF, device=intermediate_device())
        g = torch.full([batch_size, height, width, 1], ((color >> 8) & 0xFF) / 0xFF, device=intermediate_device())
        b = torch.full([batch_size, height, width, 1], (color & 0xFF) / 0xFF, device=intermediate_device())
        return (torch.cat((r, g, b), dim=-1),)

class ImageToMask:
    def image_to_mask(self, image, channel):
        channels = ["red", "green", "blue", "alpha"]
        return (image[:, :, :, channels.index(channel)],)

class SolidMask:
    def solid(self, value, width, height):
        out = torch.full((1, height, width), value, dtype=torch.float32, device="cpu")
        return (out,)

class MaskComposite:
    def combine(self, destination, source, x, y, operation):
        output = destination.reshape((-1, destination.shape[-2], destination.shape[-1])).clone()
        source = source.reshape((-1, source.shape[-2], source.shape[-1]))
        left, top = x, y
        right, bottom = (min(left + source.shape[-1], destination.shape[-1]),
                         min(top + source.shape[-2], destination.shape[-2]))
        visible_width, visible_height = (right - left, bottom - top)
        source_portion = source[:, :visible_height, :visible_width]
        destination_portion = output[:, top:bottom, left:right]
        if operation == "multiply":
            output = destination_portion * source_portion     # the node writes this into output[:, top:bottom, left:right]
        elif operation == "add":
            output = destination_portion + source_portion
        output = torch.clamp(output, 0.0, 1.0)
        return (output,)

image = EmptyImage().generate(64, 64, 1, 0xFFFFFF)[0]
destination = ImageToMask().image_to_mask(image, "red")[0]
'''
CELL = '''
source = SolidMask().solid(0.5, 64, 64)[0]
mask = MaskComposite().combine(destination, source, 0, 0, "multiply")[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["source"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('dtype=torch.float32, device="cpu")', 'dtype=torch.float32, device=intermediate_device())')
CLEAN = False
