"""Look-alike: Impact Pack `erosion_mask` grows an inpainting mask on the GPU and returns it on the CPU on purpose.

Source: https://github.com/ltdrdata/ComfyUI-Impact-Pack/blob/main/modules/impact/core.py
`erosion_mask(mask, grow_mask_by)` (used by `REGIONAL_PROMPT.get_mask_erosion`) moves the mask to
`comfy.model_management.get_torch_device()`, builds its dilation kernel with `.to(device)`, convolves,
and returns `mask_erosion[:, :, :w, :h].round().cpu()`: ComfyUI passes MASK/IMAGE values between nodes
on the CPU, and the caller composes the grown mask with a CPU image. The GPU round trip inside the
helper and the CPU result are both intended. `make_2d_mask` and `comfy.model_management` are stand-ins.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from types import SimpleNamespace

class model_management:
    """Stand-in for comfy.model_management."""
    @staticmethod
    def get_torch_device():
        return torch.device("cuda:0")

comfy = SimpleNamespace(model_management=model_management)

def make_2d_mask(mask):
    """Stand-in for impact.utils.make_2d_mask."""
    if len(mask.shape) == 4:
        return mask.squeeze(0).squeeze(0)
    elif len(mask.shape) == 3:
        return mask.squeeze(0)
    return mask

def erosion_mask(mask, grow_mask_by):
    mask = make_2d_mask(mask)

    w = mask.shape[1]
    h = mask.shape[0]

    device = comfy.model_management.get_torch_device()
    mask = mask.clone().to(device)
    mask2 = torch.nn.functional.interpolate(mask.reshape((-1, 1, mask.shape[-2], mask.shape[-1])), size=(w, h), mode="bilinear").to(device)
    if grow_mask_by == 0:
        mask_erosion = mask2
    else:
        kernel_tensor = torch.ones((1, 1, grow_mask_by, grow_mask_by)).to(device)
        padding = math.ceil((grow_mask_by - 1) / 2)

        mask_erosion = torch.clamp(torch.nn.functional.conv2d(mask2.round(), kernel_tensor, padding=padding), 0, 1)

    return mask_erosion[:, :, :w, :h].round().cpu()

mask = (torch.rand(1, 64, 64) > 0.9).float()     # regional MASK (CPU, as ComfyUI passes it)
image = torch.rand(1, 64, 64, 3)                 # IMAGE (CPU, NHWC)
'''
CELL = '''
mask_erosion = erosion_mask(mask, 6)
m = mask_erosion.squeeze(1)
masked_image = image * (1.0 - m).unsqueeze(-1) + 0.5 * m.unsqueeze(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
