"""ComfyUI ZImageFunControlnet under --gpu-only: the inpaint mask stays on the CPU and is concatenated with the VAE latents on the GPU.

Source: https://github.com/Comfy-Org/ComfyUI/pull/11421
Issue 11412: "Expected all tensors to be on the same device, but got tensors is on cpu, different from
other tensors on cuda:0 (when checking argument in method wrapper_CUDA_cat)" in ZImageFunControlnet
with `--gpu-only`. The PR: "This operation does a torch.cat in latents which in --gpu-only may be out
of the GPU. The two VAE results will follow the --gpu-only defined behaviour so follow the inpaint
image device when calculating the mask." Stand-in: a small VAE whose encode returns on the load
device (the GPU under --gpu-only) and the node's latent/mask concatenation.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("cuda:0")                         # --gpu-only: load and output device

class VAE:
    downscale_ratio = 8

    def __init__(self):
        self.encoder = nn.Conv2d(3, 16, 8, stride=8).to(device)

    def encode(self, pixels):
        return self.encoder(pixels.movedim(-1, 1).to(device))   # stays on the GPU with --gpu-only

class ZImageFunControlnet:
    def encode(self, vae, control_image, inpaint_image, mask):
        control_latent = vae.encode(control_image[:, :, :, :3])
        inpaint_latent = vae.encode(inpaint_image[:, :, :, :3])
        mask_ = F.interpolate(mask.reshape(-1, 1, mask.shape[-2], mask.shape[-1]),
                              size=inpaint_latent.shape[-2:], mode="nearest")
        return torch.cat([control_latent, inpaint_latent, mask_], dim=1)

vae = VAE()
control_image = torch.rand(1, 64, 64, 3, device=device)     # preprocessor output (intermediate device)
inpaint_image = torch.rand(1, 64, 64, 3, device=device)
mask = torch.zeros(1, 64, 64)                               # a mask node's output (CPU)
'''
CELL = '''
control_context = ZImageFunControlnet().encode(vae, control_image, inpaint_image, mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mask_ = F.interpolate(mask.reshape(", "mask_ = F.interpolate(mask.to(inpaint_image.device).reshape(")
CLEAN = False
