"""Look-alike: an fp16 SDXL pipeline whose VAE is upcast to float32 for decoding, with the half latents cast to the VAE's dtype first.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/pipelines/stable_diffusion_xl/pipeline_stable_diffusion_xl.py
At the end of `StableDiffusionXLPipeline.__call__`: `needs_upcasting = self.vae.dtype == torch.float16
and self.vae.config.force_upcast`; if so `self.upcast_vae()` (the VAE to float32) and
`latents = latents.to(next(iter(self.vae.post_quant_conv.parameters())).dtype)` before
`self.vae.decode(...)`, then `self.vae.to(dtype=torch.float16)` again. A float32 VAE beside a half
UNet and half latents is the designed path (the SDXL VAE overflows in fp16).
Stand-ins: tiny half UNet and a VAE with `force_upcast`; runs on the CPU (dtype only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(32, 4)
    def forward(self, latents, t, encoder_hidden_states):
        return self.conv(latents) + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(scaling_factor=0.13025, force_upcast=True)
        self.post_quant_conv = nn.Conv2d(4, 4, 1)
        self.decoder = nn.Sequential(nn.Upsample(scale_factor=8), nn.Conv2d(4, 3, 3, padding=1))
    @property
    def dtype(self):
        return next(self.parameters()).dtype
    def decode(self, z, return_dict=False):
        return (self.decoder(self.post_quant_conv(z)),)

class StableDiffusionXLPipeline:
    def __init__(self, unet, vae):
        self.unet, self.vae = unet, vae
    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        return cls(UNet2DConditionModel().to(torch_dtype), AutoencoderKL().to(torch_dtype))
    def upcast_vae(self):
        self.vae.to(dtype=torch.float32)

    @torch.no_grad()
    def __call__(self, prompt_embeds, num_inference_steps=3, output_type="pt"):
        latents = torch.randn(1, 4, 8, 8, dtype=prompt_embeds.dtype)
        for t in range(num_inference_steps):
            latents = latents - 0.1 * self.unet(latents, t, prompt_embeds)
        needs_upcasting = self.vae.dtype == torch.float16 and self.vae.config.force_upcast
        if needs_upcasting:
            self.upcast_vae()
            latents = latents.to(next(iter(self.vae.post_quant_conv.parameters())).dtype)
        image = self.vae.decode(latents / self.vae.config.scaling_factor, return_dict=False)[0]
        if needs_upcasting:
            self.vae.to(dtype=torch.float16)
        return SimpleNamespace(images=image)

pipe = StableDiffusionXLPipeline.from_pretrained("stabilityai/stable-diffusion-xl-base-1.0", torch_dtype=torch.float16)
prompt_embeds = torch.randn(1, 7, 32, dtype=torch.float16)
'''
CELL = '''
image = pipe(prompt_embeds=prompt_embeds, num_inference_steps=3).images
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
