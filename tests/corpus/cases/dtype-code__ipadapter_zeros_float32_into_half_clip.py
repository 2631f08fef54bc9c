"""IPAdapter node: an all-zeros negative image is made with torch.zeros (float32) for a half CLIP vision model.

Source: https://github.com/cubiq/ComfyUI_IPAdapter_plus/issues/151
"expected scalar type Float but found Half": the node encodes the reference image with the
half-precision CLIP vision encoder, and for the unconditional branch builds
`image = torch.zeros([batch_size, 224, 224, 3])` with no dtype; that float32 tensor reaches the
half encoder. The maintainer asked the user to print `image.dtype` right after that line. Run on
the CPU (a dtype bug); the vision encoder is a small stand-in.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class ClipVision(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.patch = nn.Linear(3 * 16 * 16, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, pixel_values):           # (B, H, W, C) as ComfyUI images are
        b = pixel_values.shape[0]
        patches = pixel_values.reshape(b, 14, 16, 14, 16, 3).permute(0, 1, 3, 2, 4, 5)
        patches = patches.reshape(b, 14 * 14, 16 * 16 * 3)
        return self.proj(self.patch(patches)).mean(1)

def encode_image_masked(clip_vision, image):
    return clip_vision(image)

def get_image_embeds(clip_vision, image, batch_size=1):
    cond = encode_image_masked(clip_vision, image)
    image = torch.zeros([batch_size, 224, 224, 3])
    uncond = encode_image_masked(clip_vision, image)
    return cond, uncond

clip_vision = ClipVision().half()
reference = torch.rand(1, 224, 224, 3).half()
'''
CELL = '''
cond, uncond = get_image_embeds(clip_vision, reference)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype", "expected scalar type")
CULPRITS = ["image"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.zeros([batch_size, 224, 224, 3])",
                  "torch.zeros([batch_size, 224, 224, 3], dtype=clip_vision.patch.weight.dtype)")
CLEAN = False
