"""Look-alike: IP-Adapter image prompt encoded from CPU pixel values that `encode_image` moves to the image encoder's device.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/pipelines/stable_diffusion/pipeline_stable_diffusion.py
`StableDiffusionPipeline.encode_image` takes `dtype = next(self.image_encoder.parameters()).dtype`,
runs `self.feature_extractor(image, return_tensors="pt").pixel_values` (a CPU tensor) and then
`image = image.to(device=device, dtype=dtype)` before `self.image_encoder(image).image_embeds`; the
unconditional embedding is `torch.zeros_like(image_embeds)` on the same device. The user's PIL
image / CPU tensor next to a cuda pipeline is expected.
Stand-ins: CLIPImageProcessor (CPU output), a CLIP vision model with projection, the pipeline's
`encode_image`, a UNet taking the image embeddings as extra tokens.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class CLIPImageProcessor:
    def __call__(self, images, return_tensors="pt"):
        return SimpleNamespace(pixel_values=images.float().clamp(0, 1))

class CLIPVisionModelWithProjection(nn.Module):
    def __init__(self, patch=8, dim=32):
        super().__init__()
        self.patch = patch
        self.patch_embedding = nn.Linear(3 * patch * patch, dim)
        self.visual_projection = nn.Linear(dim, 16)
    def forward(self, pixel_values):
        b, c, h, w = pixel_values.shape
        p = self.patch
        patches = pixel_values.reshape(b, c, h // p, p, w // p, p).permute(0, 2, 4, 1, 3, 5).reshape(b, -1, c * p * p)
        pooled = self.patch_embedding(patches).mean(1)
        return SimpleNamespace(image_embeds=self.visual_projection(pooled))

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.image_proj = nn.Linear(16, 4)
    def forward(self, latents, t, image_embeds):
        return self.conv(latents) + self.image_proj(image_embeds)[:, :, None, None]

class StableDiffusionPipeline:
    def __init__(self):
        self.feature_extractor = CLIPImageProcessor()
        self.image_encoder = CLIPVisionModelWithProjection()
        self.unet = UNet2DConditionModel()
    def to(self, device):
        self.image_encoder.to(device)
        self.unet.to(device)
        self._execution_device = torch.device(device)
        return self

    def encode_image(self, image, device, num_images_per_prompt):
        dtype = next(self.image_encoder.parameters()).dtype
        if not isinstance(image, torch.Tensor) or image.ndim == 4:
            image = self.feature_extractor(image, return_tensors="pt").pixel_values
        image = image.to(device=device, dtype=dtype)
        image_embeds = self.image_encoder(image).image_embeds
        image_embeds = image_embeds.repeat_interleave(num_images_per_prompt, dim=0)
        uncond_image_embeds = torch.zeros_like(image_embeds)
        return image_embeds, uncond_image_embeds

    @torch.no_grad()
    def __call__(self, ip_adapter_image, num_inference_steps=3, guidance_scale=7.5):
        device = self._execution_device
        image_embeds, negative_image_embeds = self.encode_image(ip_adapter_image, device, 1)
        image_embeds = torch.cat([negative_image_embeds, image_embeds])
        latents = torch.randn(1, 4, 8, 8, device=device)
        for t in range(num_inference_steps):
            noise_pred = self.unet(torch.cat([latents] * 2), t, image_embeds)
            uncond, text = noise_pred.chunk(2)
            latents = latents - 0.1 * (uncond + guidance_scale * (text - uncond))
        return SimpleNamespace(images=latents)

pipeline = StableDiffusionPipeline().to("cuda:0")
image = torch.rand(1, 3, 32, 32)                   # load_image(...) of the style reference
'''
CELL = '''
images = pipeline(ip_adapter_image=image, num_inference_steps=3).images
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
