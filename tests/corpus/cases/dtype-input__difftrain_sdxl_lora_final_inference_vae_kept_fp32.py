"""SDXL LoRA training script, final inference: fp16 UNet latents decoded by the VAE kept in float32.

Source: https://github.com/huggingface/diffusers/issues/4619
`train_text_to_image_lora_sdxl.py --mixed_precision fp16` failed with "Input type (c10::Half) and bias
type (float) should be the same" in the VAE. Without `--pretrained_vae_model_name_or_path` the script
keeps `vae` in float32 (`vae.to(accelerator.device, dtype=torch.float32)`), while the UNet (and so the
latents) are fp16; the fix (PR 6231) casts `vae` to `weight_dtype` before the final inference.
Stand-in: tiny UNet/VAE-decoder convs and a pipeline call reduced to denoise-then-decode; CPU only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 8, 3, padding=1)
        self.conv_out = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, sample, t):
        return self.conv_out(torch.nn.functional.silu(self.conv_in(sample)))

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.post_quant_conv = nn.Conv2d(4, 4, 1)
        self.decoder = nn.Conv2d(4, 3, 3, padding=1)

    def decode(self, z):
        return self.decoder(self.post_quant_conv(z))

class StableDiffusionXLPipeline:
    def __init__(self, vae, unet):
        self.vae, self.unet = vae, unet

    @torch.no_grad()
    def __call__(self, latents, num_inference_steps=2):
        for t in range(num_inference_steps):
            noise_pred = self.unet(latents, t)
            latents = latents - 0.1 * noise_pred
        return self.vae.decode(latents / 0.13025)

weight_dtype = torch.float16                    # args.mixed_precision == "fp16"
unet = UNet2DConditionModel().to(dtype=weight_dtype)
vae = AutoencoderKL()
vae.to(dtype=torch.float32)                     # pretrained_vae_model_name_or_path is None
pipeline = StableDiffusionXLPipeline(vae=vae, unet=unet)
latents = torch.randn(1, 4, 16, 16, dtype=weight_dtype)
'''
CELL = '''
images = pipeline(latents, num_inference_steps=2)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["vae"]
FIX = "namespace"
REFERENCE_FIX = '''
vae.to(weight_dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
