"""Look-alike: ComfyUI's ImageCompositeMasked pastes a CPU source image through a CPU mask onto a GPU destination; `composite` moves both to the destination's device first.

Source: https://github.com/Comfy-Org/ComfyUI (comfy_extras/nodes_mask.py `composite`: `source = source.to(destination.device)`,
`mask = mask.to(destination.device, copy=True)`; `ImageCompositeMasked.execute`)
Under `--gpu-only` the destination (EmptyImage / VAEDecode) is on cuda:0 while LoadImage's image and mask
are on the CPU; the node aligns them inside `composite` before the blend, so the mixed-device inputs are
fine. The cell runs. Stand-in: `composite` and the node's execute (same names), image_alpha_fix and
repeat_to_batch_size from node_helpers / comfy.utils.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch

def repeat_to_batch_size(tensor, batch_size, dim=0):          # comfy.utils
    if tensor.shape[dim] > batch_size:
        return tensor.narrow(dim, 0, batch_size)
    elif tensor.shape[dim] < batch_size:
        return tensor.repeat(dim * [1] + [batch_size // tensor.shape[dim]] + [1] * (len(tensor.shape) - 1 - dim))
    return tensor

def image_alpha_fix(destination, source):                     # node_helpers
    if destination.shape[-1] < source.shape[-1]:
        source = source[..., :destination.shape[-1]]
    return destination, source

def composite(destination, source, x, y, mask=None, multiplier=8, resize_source=False):
    source = source.to(destination.device)
    if resize_source:
        source = torch.nn.functional.interpolate(source, size=(destination.shape[-2], destination.shape[-1]), mode="bilinear")
    source = repeat_to_batch_size(source, destination.shape[0])
    x = max(-source.shape[-1] * multiplier, min(x, destination.shape[-1] * multiplier))
    y = max(-source.shape[-2] * multiplier, min(y, destination.shape[-2] * multiplier))
    left, top = (x // multiplier, y // multiplier)
    right, bottom = (left + source.shape[-1], top + source.shape[-2],)
    if mask is None:
        mask = torch.ones_like(source)
    else:
        mask = mask.to(destination.device, copy=True)
        mask = torch.nn.functional.interpolate(mask.reshape((-1, 1, mask.shape[-2], mask.shape[-1])), size=(source.shape[-2], source.shape[-1]), mode="bilinear")
        mask = repeat_to_batch_size(mask, source.shape[0])
    visible_width, visible_height = (destination.shape[-1] - left + min(0, x), destination.shape[-2] - top + min(0, y),)
    mask = mask[:, :, :visible_height, :visible_width]
    if mask.ndim < source.ndim:
        mask = mask.unsqueeze(1)
    inverse_mask = torch.ones_like(mask) - mask
    source_portion = mask * source[..., :visible_height, :visible_width]
    destination_portion = inverse_mask * destination[..., top:bottom, left:right]
    destination[..., top:bottom, left:right] = source_portion + destination_portion
    return destination

class ImageCompositeMasked:
    @classmethod
    def execute(cls, destination, source, x, y, resize_source, mask=None):
        destination, source = image_alpha_fix(destination, source)
        destination = destination.clone().movedim(-1, 1)
        output = composite(destination, source.movedim(-1, 1), x, y, mask, 1, resize_source).movedim(1, -1)
        return (output,)

destination = torch.zeros(1, 64, 64, 3, device="meta")       # EmptyImage under --gpu-only (meta stands for the GPU)
source = torch.rand(1, 32, 32, 3)                            # LoadImage (CPU)
mask = torch.rand(1, 32, 32)                                 # LoadImage alpha mask (CPU)
'''
CELL = '''
result = ImageCompositeMasked.execute(destination, source, 16, 16, False, mask=mask)[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
