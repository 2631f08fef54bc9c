"""SDXL pipeline in fp16: the first call upcasts the VAE to float32 and leaves it there; the second call fails.

Source: https://github.com/huggingface/diffusers/issues/4752
`StableDiffusionXLPipeline.__call__` checks `self.vae.dtype == torch.float16 and force_upcast`,
then `self.upcast_vae()` and casts the latents to the VAE's dtype. Nothing casts the VAE back, so on
the second `pipe(prompt=prompt)` the check is False, the half latents are not cast, and
`vae.decode` raised "Input type (c10::Half) and bias type (float) should be the same". The pipeline,
UNet and VAE are small stand-ins keeping the decode/upcast logic. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(force_upcast=True, scaling_factor=0.13025)
        self.post_quant_conv = nn.Conv2d(4, 4, 1)
        self.decoder = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 3, 3, padding=1))

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def decode(self, z):
        return SimpleNamespace(sample=self.decoder(self.post_quant_conv(z)))

class StableDiffusionXLPipeline:
    def __init__(self, unet, vae):
        self.unet, self.vae = unet, vae

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32, **kwargs):
        unet = nn.Conv2d(4, 4, 3, padding=1)
        return cls(unet.to(torch_dtype), AutoencoderKL().to(torch_dtype))

    def to(self, device):
        self.unet.to(device); self.vae.to(device)
        return self

    def upcast_vae(self):
        self.vae.to(dtype=torch.float32)

    def __call__(self, prompt, num_inference_steps=2):
        latents = torch.randn(1, 4, 8, 8, dtype=self.unet.weight.dtype)
        for _ in range(num_inference_steps):
            latents = latents - 0.1 * self.unet(latents)
        # make sure the VAE is in float32 mode, as it overflows in float16
        needs_upcasting = self.vae.dtype == torch.float16 and self.vae.config.force_upcast
        if needs_upcasting:
            self.upcast_vae()
            latents = latents.to(next(iter(self.vae.post_quant_conv.parameters())).dtype)
        image = self.vae.decode(latents / self.vae.config.scaling_factor).sample
        return SimpleNamespace(images=[image])

pipe = StableDiffusionXLPipeline.from_pretrained("stabilityai/stable-diffusion-xl-base-1.0",
                                                 torch_dtype=torch.float16, use_safetensors=True, variant="fp16")
pipe.to("cpu")
prompt = "An astronaut riding a green horse"
first = pipe(prompt=prompt).images[0]
'''
CELL = '''
second = pipe(prompt=prompt).images[0]
'''
EXPECT_ERROR = ("Input type (c10::Half) and bias type (float) should be the same",
                "should be the same")
CULPRITS = ["pipe.vae"]
FIX = "namespace"
REFERENCE_FIX = '''
pipe.vae.to(dtype=torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
