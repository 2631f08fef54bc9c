"""Inpaint-CropAndStitch `blur_m` builds its Gaussian kernel in float32 and convolves an fp16 mask with it.

Source: https://github.com/lquesada/ComfyUI-Inpaint-CropAndStitch/issues/157
`InpaintCropImproved` with GPU mode, `mask_fill_holes=False` and the mask blur active failed with
"Input type (torch.cuda.HalfTensor) and weight type (torch.cuda.FloatTensor) should be the same".
The reporter traced it to `GPUProcessorLogic.blur_m()`: `x = torch.arange(kernel_size,
device=samples.device)` uses the default dtype, so the Gaussian kernel stays float32 while the incoming
mask is float16; the fix is `torch.arange(kernel_size, device=samples.device, dtype=samples.dtype)`.
Run on the CPU (a dtype bug); `GPUProcessorLogic` is reduced to `blur_m` and its siblings as written in
the node pack, the mask a float16 MASK from an upstream node.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn.functional as TF

class GPUProcessorLogic:
    """Stand-in: the GPU mask helpers of ComfyUI-Inpaint-CropAndStitch (inpaint_cropandstitch.py)."""
    def invert_m(self, samples):
        inverted_mask = samples.clone()
        inverted_mask = 1.0 - inverted_mask
        return inverted_mask

    def blur_m(self, samples, pixels):
        sigma = pixels / 4
        # Gaussian blur implementation on GPU
        kernel_size = 2 * int(4.0 * sigma + 0.5) + 1

        # Create gaussian kernel
        x = torch.arange(kernel_size, device=samples.device) - (kernel_size - 1) / 2
        kernel_1d = torch.exp(-0.5 * (x / sigma).pow(2))
        kernel_1d = kernel_1d / kernel_1d.sum()

        kernel_2d = kernel_1d.unsqueeze(1) * kernel_1d.unsqueeze(0)
        kernel_2d = kernel_2d.expand(1, 1, kernel_size, kernel_size)

        mask_in = samples.unsqueeze(1)
        blurred = TF.conv2d(mask_in, kernel_2d, padding=kernel_size//2, groups=1)

        return blurred.squeeze(1).clamp(0.0, 1.0)

processor = GPUProcessorLogic()
mask = (torch.rand(1, 64, 64) > 0.6).to(torch.float16)    # fp16 MASK from the upstream pipeline
mask_blend_pixels = 8
'''
CELL = '''
mask = processor.blur_m(mask, mask_blend_pixels)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "should be the same", "same dtype")
CULPRITS = ["processor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        x = torch.arange(kernel_size, device=samples.device) - (kernel_size - 1) / 2""",
                  """        x = torch.arange(kernel_size, device=samples.device, dtype=samples.dtype) - (kernel_size - 1) / 2""")
CLEAN = False
