"""sd_dreambooth_extension: `vae.encode(batch["pixel_values"].to(dtype=weight_dtype))` with an fp16 batch and a VAE left in float32.

Source: https://github.com/d8ahazard/sd_dreambooth_extension/issues/130
Training in the A1111 Dreambooth extension printed pages of "expected scalar type Float but found
Half" from `latent_dist = vae.encode(batch["pixel_values"].to(dtype=weight_dtype)).latent_dist` in
train_dreambooth.py: the pixel values are cast to the mixed-precision `weight_dtype` (float16) while
the VAE's weights are still float32. Run on the CPU (a dtype bug); diffusers' AutoencoderKL is a
small stand-in with its `encode(...).latent_dist` shape.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import types
import torch
from torch import nn

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.SiLU(),
                                     nn.Conv2d(16, 8, 3, stride=2, padding=1))

    def encode(self, x):
        moments = self.encoder(x)
        mean, logvar = moments.chunk(2, dim=1)
        dist = types.SimpleNamespace(mean=mean, sample=lambda: mean + torch.randn_like(mean) * (0.5 * logvar).exp())
        return types.SimpleNamespace(latent_dist=dist)

weight_dtype = torch.float16                     # mixed_precision == "fp16"
vae = AutoencoderKL()                            # AutoencoderKL.from_pretrained(..., subfolder="vae")
vae.requires_grad_(False)
batch = {"pixel_values": torch.rand(2, 3, 32, 32) * 2 - 1, "input_ids": torch.randint(0, 49408, (2, 77))}
'''
CELL = '''
with torch.no_grad():
    latent_dist = vae.encode(batch["pixel_values"].to(dtype=weight_dtype)).latent_dist
    latents = latent_dist.sample() * 0.18215
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["vae"]
FIX = "namespace"
REFERENCE_FIX = '''
vae.to(dtype=weight_dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
