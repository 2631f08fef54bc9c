"""ComfyUI-layerdiffuse: the mask output of "Layer Diffuse Decode" is still on the GPU; VAEEncodeForInpaint multiplies CPU pixels by it.

Source: https://github.com/huchenlei/ComfyUI-layerdiffuse/issues/28
Feeding the Layer Diffuse Decode node's MASK into "VAE Encode (for Inpainting)" failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" at
nodes.py `pixels[:,:,:,i] *= m`. The decode node's MASK output is the alpha it computed on the GPU
(the reading the report supports), while ComfyUI images and masks live on the CPU between nodes; the reporter noted that the same
mask saved to disk and loaded back (a CPU tensor) works. Stand-in: the transparent-VAE alpha head,
the decode node and VAEEncodeForInpaint's masking (no mask growing), a small VAE encoder.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")                    # comfy.model_management.get_torch_device()

class TransparentVAEDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha_head = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, pixel):                       # (B, 3, H, W) on the GPU
        return torch.sigmoid(self.alpha_head(pixel))

class LayeredDiffusionDecode:
    def __init__(self):
        self.vae_transparent_decoder = TransparentVAEDecoder().to(device)

    def decode(self, images):
        pixel = images.movedim(-1, 1).to(device)
        alpha = self.vae_transparent_decoder(pixel)
        mask = alpha[:, 0]                           # (B, H, W), left on the GPU
        return (images, mask)

class VAE:
    downscale_ratio = 8

    def __init__(self):
        self.encoder = nn.Conv2d(3, 4, 8, stride=8)

    def encode(self, pixels):
        return self.encoder(pixels.movedim(-1, 1))

class VAEEncodeForInpaint:
    def encode(self, vae, pixels, mask, grow_mask_by=0):
        mask = torch.nn.functional.interpolate(mask.reshape((-1, 1, mask.shape[-2], mask.shape[-1])),
                                               size=(pixels.shape[1], pixels.shape[2]), mode="bilinear")
        pixels = pixels.clone()
        m = (1.0 - mask.round()).squeeze(1)
        for i in range(3):
            pixels[:, :, :, i] -= 0.5
            pixels[:, :, :, i] *= m
            pixels[:, :, :, i] += 0.5
        t = vae.encode(pixels)
        return ({"samples": t, "noise_mask": mask.round()},)

images = torch.rand(1, 64, 64, 3)                                  # decoded RGB image (CPU)
image, mask = LayeredDiffusionDecode().decode(images)
vae = VAE()
'''
CELL = '''
latent = VAEEncodeForInpaint().encode(vae, image, mask, grow_mask_by=0)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mask"]
FIX = "namespace"
REFERENCE_FIX = '''
mask = mask.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
