"""LEDITS++ SDXL in fp16: `encode_image` upcasts the VAE, then casts the image back to the (still fp16) post_quant_conv dtype before `vae.encode`.

Source: https://github.com/huggingface/diffusers/issues/7854
Inverting an image with the fp16 LEditsPPPipelineStableDiffusionXL failed in
`encode_image` -> `self.vae.encode(image)` -> `encoder.conv_in`: "Input type (c10::Half) and bias
type (float) should be the same". The SDXL VAE has `force_upcast`, so `encode_image` calls
`upcast_vae()`, which puts the VAE in float32 but, with torch>=2.0/xformers attention processors,
keeps `post_quant_conv`, `decoder.conv_in` and `decoder.mid_block` in fp16; the next line then
casts the image to `next(iter(self.vae.post_quant_conv.parameters())).dtype` -- fp16 -- and the
float32 encoder receives it. The fix (PR #7858, "Fix image upcasting") drops that cast for
encoding: it belongs before `vae.decode()`, not `vae.encode()`.
Stand-ins: a small AutoencoderKL (encoder, quant/post_quant convs, decoder with a mid block
using `AttnProcessor2_0`), the pipeline's `upcast_vae` and `encode_image`, and `invert` reduced
to the encoding step; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
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
        return self.resnet(x)

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(3, 16, 3, padding=1)
        self.down = nn.Conv2d(16, 16, 4, stride=4)
        self.conv_out = nn.Conv2d(16, 8, 3, padding=1)

    def forward(self, x):
        return self.conv_out(torch.relu(self.down(self.conv_in(x))))

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 16, 3, padding=1)
        self.mid_block = UNetMidBlock2D(16)
        self.conv_out = nn.Conv2d(16, 3, 3, padding=1)

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(force_upcast=True, scaling_factor=0.13025)
        self.encoder = Encoder()
        self.quant_conv = nn.Conv2d(8, 8, 1)
        self.post_quant_conv = nn.Conv2d(4, 4, 1)
        self.decoder = Decoder()

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def encode(self, x):
        moments = self.quant_conv(self.encoder(x))
        mean, logvar = moments.chunk(2, dim=1)
        return SimpleNamespace(latent_dist=SimpleNamespace(mode=lambda: mean))

class LEditsPPPipelineStableDiffusionXL:
    def __init__(self, vae):
        self.vae = vae

    @classmethod
    def from_pretrained(cls, name, variant=None, torch_dtype=torch.float32):
        return cls(AutoencoderKL().to(torch_dtype))

    def upcast_vae(self):
        dtype = self.vae.dtype
        self.vae.to(dtype=torch.float32)
        use_torch_2_0_or_xformers = isinstance(self.vae.decoder.mid_block.attentions[0].processor, AttnProcessor2_0)
        # if xformers or torch_2_0 is used attention block does not need
        # to be in float32 which can save lots of memory
        if use_torch_2_0_or_xformers:
            self.vae.post_quant_conv.to(dtype)
            self.vae.decoder.conv_in.to(dtype)
            self.vae.decoder.mid_block.to(dtype)

    def encode_image(self, image, dtype=None):
        image = image.to(dtype=dtype)            # image_processor.preprocess(...) -> [-1, 1]
        needs_upcasting = self.vae.dtype == torch.float16 and self.vae.config.force_upcast
        if needs_upcasting:
            image = image.float()
            self.upcast_vae()
            image = image.to(next(iter(self.vae.post_quant_conv.parameters())).dtype)
        x0 = self.vae.encode(image).latent_dist.mode()
        x0 = x0.to(dtype)
        # cast back to fp16 if needed
        if needs_upcasting:
            self.vae.to(dtype=torch.float16)
        x0 = self.vae.config.scaling_factor * x0
        return x0, image

    @torch.no_grad()
    def invert(self, image, num_inversion_steps=50, skip=0.2):
        x0, resized = self.encode_image(image, dtype=torch.float16)
        self.init_latents = x0
        return x0

pipe = LEditsPPPipelineStableDiffusionXL.from_pretrained(
    "stabilityai/stable-diffusion-xl-base-1.0", variant="fp16", torch_dtype=torch.float16)
image = torch.rand(1, 3, 64, 64) * 2 - 1      # load_image(...) after preprocessing
'''
CELL = '''
_ = pipe.invert(image=image, num_inversion_steps=50, skip=0.2)
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            image = image.to(next(iter(self.vae.post_quant_conv.parameters())).dtype)\n", "")
CLEAN = False
