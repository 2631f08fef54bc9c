"""ComfyUI-NAG-Extended NAGCFGGuider.sample re-implements CFGGuider.sample without the mask preparation core moved into it: the noise mask stays on the CPU.

Source: https://github.com/BigStationW/ComfyUI-NAG-Extended/pull/11
"ComfyUI core moved denoise_mask preparation from CFGGuider.outer_sample into CFGGuider.sample, so any
masked sampling through the NAG guider (SetLatentNoiseMask, tiled samplers) crashes with 'Expected all
tensors to be on the same device, cuda:0 and cpu'." NAGCFGGuider overrides `sample` and calls
`outer_sample` directly, so the LATENT's noise mask never goes through `prepare_mask(..., device)` and
meets the GPU latent in KSamplerX0Inpaint. The PR's fix prepares denoise_mask in NAGCFGGuider.sample.
Stand-in: comfy.samplers' CFGGuider/KSamplerX0Inpaint/Euler sampler reduced to the mask path, a tiny
UNet; the mask is at latent resolution (as tiled samplers hand it over) so shapes broadcast.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def reshape_mask(input_mask, output_shape):                 # comfy.utils
    mask = torch.nn.functional.interpolate(input_mask.reshape((-1, 1) + tuple(input_mask.shape[-2:])), size=output_shape[2:], mode="nearest-exact")
    if mask.shape[1] < output_shape[1]:
        mask = mask.repeat((1, output_shape[1], 1, 1))[:, :output_shape[1]]
    return mask

def prepare_mask(noise_mask, shape, device):                # comfy.sampler_helpers
    return reshape_mask(noise_mask, shape).to(device)

class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
    def forward(self, x, sigma):
        return self.conv(x)

class ModelPatcher:
    def __init__(self, model, load_device):
        self.model = model
        self.load_device = load_device

class KSamplerX0Inpaint:
    def __init__(self, model, latent_image):
        self.inner_model = model
        self.latent_image = latent_image
    def __call__(self, x, sigma, denoise_mask):
        if denoise_mask is not None:
            latent_mask = 1. - denoise_mask
            x = x * denoise_mask + self.latent_image * latent_mask
        out = self.inner_model(x, sigma)
        if denoise_mask is not None:
            out = out * denoise_mask + self.latent_image * latent_mask
        return out

class KSAMPLER:                                             # euler
    def sample(self, model, sigmas, noise, latent_image, denoise_mask):
        model_k = KSamplerX0Inpaint(model, latent_image)
        x = noise * sigmas[0]
        for i in range(len(sigmas) - 1):
            denoised = model_k(x, sigmas[i], denoise_mask)
            x = x + (x - denoised) / sigmas[i] * (sigmas[i + 1] - sigmas[i])
        return x

class CFGGuider:
    def __init__(self, model_patcher):
        self.model_patcher = model_patcher

    def __call__(self, x, sigma):
        return self.model_patcher.model(x, sigma)

    def inner_sample(self, noise, latent_image, device, sampler, sigmas, denoise_mask):
        return sampler.sample(self, sigmas, noise, latent_image, denoise_mask)

    def outer_sample(self, noise, latent_image, sampler, sigmas, denoise_mask=None):
        device = self.model_patcher.load_device
        noise, latent_image, sigmas = noise.to(device), latent_image.to(device), sigmas.to(device)
        return self.inner_sample(noise, latent_image, device, sampler, sigmas, denoise_mask)

    def sample(self, noise, latent_image, sampler, sigmas, denoise_mask=None):
        if denoise_mask is not None:                        # moved here from outer_sample by core 809ce68
            denoise_mask = prepare_mask(denoise_mask, noise.shape, self.model_patcher.load_device)
        return self.outer_sample(noise, latent_image, sampler, sigmas, denoise_mask)

class NAGCFGGuider(CFGGuider):
    def __init__(self, model_patcher):
        super().__init__(model_patcher=model_patcher)
        self.nag_scale = 5.0

    def sample(self, noise, latent_image, sampler, sigmas, denoise_mask=None):
        if sigmas.shape[-1] == 0:
            return latent_image
        apply_guidance = self.nag_scale > 1.
        return self.outer_sample(noise, latent_image, sampler, sigmas, denoise_mask)

device = torch.device("cuda:0")
model = ModelPatcher(UNet().to(device), device)
guider = NAGCFGGuider(model)
sampler = KSAMPLER()
latent = {"samples": torch.zeros(1, 4, 16, 16), "noise_mask": torch.ones(1, 16, 16)}   # SetLatentNoiseMask (CPU)
noise = torch.randn(1, 4, 16, 16)
sigmas = torch.linspace(14.6, 0.03, 5)
'''
CELL = '''
samples = guider.sample(noise, latent["samples"], sampler, sigmas, denoise_mask=latent["noise_mask"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["guider"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        apply_guidance = self.nag_scale > 1.\n", "        apply_guidance = self.nag_scale > 1.\n        if denoise_mask is not None:\n            denoise_mask = prepare_mask(denoise_mask, noise.shape, self.model_patcher.load_device)\n")
CLEAN = False
