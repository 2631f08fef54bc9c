"""Look-alike: SDXL decode with `force_upcast` -- the VAE is upcast to float32 but keeps post_quant_conv, decoder.conv_in and the mid block in fp16, and the latents are cast to match.

Source: https://github.com/huggingface/diffusers/pull/11228
In the "Fix vae dtype" discussion the maintainer explains the SDXL pipelines' behaviour: when the
VAE is fp16 and its config has `force_upcast`, the pipeline calls `upcast_vae()` before decoding
(float32 VAE, but with torch 2.0 / xformers attention processors `post_quant_conv`,
`decoder.conv_in` and `decoder.mid_block` stay fp16), casts the latents to
`next(iter(self.vae.post_quant_conv.parameters())).dtype`, and the decoder casts to the up blocks'
dtype after the mid block; afterwards the VAE goes back to fp16. fp16 and fp32 layers in one
module on purpose, and decoding runs. Stand-ins: a small AutoencoderKL decoder with diffusers'
`upscale_dtype` cast, the pipeline's `upcast_vae` and decode step; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class AttnProcessor2_0:
    pass

class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.to_q = nn.Linear(c, c)
        self.processor = AttnProcessor2_0()

class UNetMidBlock2D(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.attentions = nn.ModuleList([Attention(c)])
        self.resnet = nn.Conv2d(c, c, 3, padding=1)

    def forward(self, x):
        return x + self.resnet(x)

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 16, 3, padding=1)
        self.mid_block = UNetMidBlock2D(16)
        self.up_blocks = nn.ModuleList([nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, 16, 3, padding=1))])
        self.conv_norm_out = nn.GroupNorm(4, 16)
        self.conv_out = nn.Conv2d(16, 3, 3, padding=1)

    def forward(self, sample):
        sample = self.conv_in(sample)
        upscale_dtype = next(iter(self.up_blocks.parameters())).dtype
        sample = self.mid_block(sample)
        sample = sample.to(upscale_dtype)
        for up_block in self.up_blocks:
            sample = up_block(sample)
        return self.conv_out(torch.nn.functional.silu(self.conv_norm_out(sample)))

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(force_upcast=True, scaling_factor=0.13025)
        self.post_quant_conv = nn.Conv2d(4, 4, 1)
        self.decoder = Decoder()

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def decode(self, z, return_dict=False):
        return (self.decoder(self.post_quant_conv(z)),)

class StableDiffusionXLImg2ImgPipeline:
    def __init__(self, vae):
        self.vae = vae

    def upcast_vae(self):
        dtype = self.vae.dtype
        self.vae.to(dtype=torch.float32)
        if isinstance(self.vae.decoder.mid_block.attentions[0].processor, AttnProcessor2_0):
            self.vae.post_quant_conv.to(dtype)
            self.vae.decoder.conv_in.to(dtype)
            self.vae.decoder.mid_block.to(dtype)

    @torch.no_grad()
    def decode_latents(self, latents):
        needs_upcasting = self.vae.dtype == torch.float16 and self.vae.config.force_upcast
        if needs_upcasting:
            self.upcast_vae()
            latents = latents.to(next(iter(self.vae.post_quant_conv.parameters())).dtype)
        image = self.vae.decode(latents / self.vae.config.scaling_factor, return_dict=False)[0]
        if needs_upcasting:
            self.vae.to(dtype=torch.float16)
        return image

pipe = StableDiffusionXLImg2ImgPipeline(AutoencoderKL().half())   # from_pretrained(..., torch_dtype=torch.float16)
latents = torch.randn(1, 4, 8, 8, dtype=torch.float16)              # output of the fp16 UNet loop
'''
CELL = '''
image = pipe.decode_latents(latents)
print(image.dtype, pipe.vae.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
