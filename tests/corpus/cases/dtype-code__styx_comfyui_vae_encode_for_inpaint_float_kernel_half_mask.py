"""ComfyUI `VAEEncodeForInpaint` grows a float16 mask with a kernel built as CPU float32 `torch.ones`.

Source: https://github.com/Comfy-Org/ComfyUI/pull/15736
The node builds its mask-growing kernel as `kernel_tensor = torch.ones((1, 1, grow_mask_by,
grow_mask_by))`, "always CPU / float32", and convolves it with `mask` on the next line; a
half-precision mask fails with "Input type (torch.HalfTensor) and weight type (torch.FloatTensor)
should be the same" (the PR's CPU reproduction). The PR builds the kernel with the mask's own device
and dtype: `torch.ones(..., device=mask.device, dtype=mask.dtype)`. Run on the CPU (the dtype half of
the PR); the VAE is a small stand-in with ComfyUI's `downscale_ratio`/`encode` names, the mask a
float16 MASK from an upstream node.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch

class VAE:
    """Stand-in for comfy.sd.VAE: encode() takes NHWC pixels in [0, 1]."""
    def __init__(self):
        self.downscale_ratio = 8
        self.encoder = torch.nn.Conv2d(3, 4, 8, stride=8)

    def encode(self, pixels):
        return self.encoder(pixels.movedim(-1, 1))

class VAEEncodeForInpaint:
    FUNCTION = "encode"
    CATEGORY = "latent/inpaint"

    def encode(self, vae, pixels, mask, grow_mask_by=6):
        x = (pixels.shape[1] // vae.downscale_ratio) * vae.downscale_ratio
        y = (pixels.shape[2] // vae.downscale_ratio) * vae.downscale_ratio
        mask = torch.nn.functional.interpolate(mask.reshape((-1, 1, mask.shape[-2], mask.shape[-1])), size=(pixels.shape[1], pixels.shape[2]), mode="bilinear")

        pixels = pixels.clone()
        if pixels.shape[1] != x or pixels.shape[2] != y:
            x_offset = (pixels.shape[1] % vae.downscale_ratio) // 2
            y_offset = (pixels.shape[2] % vae.downscale_ratio) // 2
            pixels = pixels[:,x_offset:x + x_offset, y_offset:y + y_offset,:]
            mask = mask[:,:,x_offset:x + x_offset, y_offset:y + y_offset]

        #grow mask by a few pixels to keep things seamless in latent space
        if grow_mask_by == 0:
            mask_erosion = mask
        else:
            kernel_tensor = torch.ones((1, 1, grow_mask_by, grow_mask_by))
            padding = math.ceil((grow_mask_by - 1) / 2)

            mask_erosion = torch.clamp(torch.nn.functional.conv2d(mask.round(), kernel_tensor, padding=padding), 0, 1)

        m = (1.0 - mask.round()).squeeze(1)
        for i in range(3):
            pixels[:,:,:,i] -= 0.5
            pixels[:,:,:,i] *= m
            pixels[:,:,:,i] += 0.5
        t = vae.encode(pixels)

        return ({"samples":t, "noise_mask": (mask_erosion[:,:,:x,:y].round())}, )

vae = VAE()
pixels = torch.rand(1, 64, 64, 3)                          # IMAGE from LoadImage (NHWC, float32)
mask = (torch.rand(1, 64, 64) > 0.7).to(torch.float16)     # MASK produced in half precision upstream
vae_encode_for_inpaint = VAEEncodeForInpaint()
'''
CELL = '''
(latent,) = vae_encode_for_inpaint.encode(vae, pixels, mask, grow_mask_by=6)
'''
EXPECT_ERROR = ("expected scalar type Half but found Float", "should be the same", "same dtype")
CULPRITS = ["vae_encode_for_inpaint"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            kernel_tensor = torch.ones((1, 1, grow_mask_by, grow_mask_by))""",
                  """            kernel_tensor = torch.ones((1, 1, grow_mask_by, grow_mask_by), device=mask.device, dtype=mask.dtype)""")
CLEAN = False
