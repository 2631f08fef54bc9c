"""Stable Video Diffusion pipeline in float16: the VAE is upcast to float32 to encode the image, and the latents cast back.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/pipelines/stable_video_diffusion/pipeline_stable_video_diffusion.py
`StableVideoDiffusionPipeline.__call__` checks `needs_upcasting = self.vae.dtype == torch.float16 and
self.vae.config.force_upcast`, moves the VAE to float32 for `_encode_vae_image`, casts the image
latents back with `image_latents.to(image_embeddings.dtype)`, and later casts the VAE back to fp16
for decoding. Look-alike: float32 and float16 modules side by side on purpose, that runs.
Stand-in: tiny VAE encoder, image encoder and UNet in the pipeline's layout; CPU (dtype only;
bfloat16 stands in for float16 so the CPU kernels exist).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

half = torch.bfloat16

class AutoencoderKLTemporalDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(force_upcast=True)
        self.encoder = nn.Conv2d(3, 4, 8, stride=8)
    @property
    def dtype(self):
        return self.encoder.weight.dtype
    def encode(self, x):
        return self.encoder(x)

class StableVideoDiffusionPipeline:
    def __init__(self):
        self.vae = AutoencoderKLTemporalDecoder().to(half)
        self.image_encoder = nn.Linear(3 * 8 * 8, 16).to(half)
        self.unet = nn.Conv2d(8, 4, 3, padding=1).to(half)

    @torch.no_grad()
    def __call__(self, image, num_frames=3, num_inference_steps=2):
        small = nn.functional.adaptive_avg_pool2d(image, 8).flatten(1)
        image_embeddings = self.image_encoder(small.to(half))
        needs_upcasting = self.vae.dtype == half and self.vae.config.force_upcast
        if needs_upcasting:
            self.vae.to(dtype=torch.float32)
        image_latents = self.vae.encode(image.to(self.vae.dtype))
        image_latents = image_latents.to(image_embeddings.dtype)
        if needs_upcasting:
            self.vae.to(dtype=half)
        latents = torch.randn(num_frames, 4, *image_latents.shape[-2:], dtype=image_embeddings.dtype)
        for _ in range(num_inference_steps):
            inp = torch.cat([latents, image_latents.expand(num_frames, -1, -1, -1)], dim=1)
            latents = latents - 0.1 * self.unet(inp)
        return latents

pipe = StableVideoDiffusionPipeline()
image = torch.rand(1, 3, 64, 64)
'''
CELL = '''
frames = pipe(image, num_frames=3)
print(frames.dtype, pipe.vae.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
