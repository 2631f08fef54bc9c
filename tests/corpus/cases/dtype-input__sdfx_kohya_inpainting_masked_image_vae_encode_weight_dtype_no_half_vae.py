"""sd-scripts `fine_tune.py --train_inpainting --no_half_vae`: the masked image is cast to `weight_dtype` (bf16) before the fp32 VAE encodes it.

Source: https://github.com/kohya-ss/sd-scripts/pull/2320
A finding from the inpainting review (follow-up to PR #2309 / #2319): in `fine_tune.py` and
`train_textual_inversion.py` the masked-image VAE encode used `weight_dtype` for its input and skipped
the output cast, while the regular latents path encodes in `vae_dtype` and casts the sample to
`weight_dtype`. Under `--no_half_vae` the VAE stays fp32 while `weight_dtype` is fp16/bf16, so the
VAE's first conv gets a half-precision input with fp32 weights ("Input type (c10::BFloat16) and
bias type (float) should be the same"). The fix: `.to(dtype=vae_dtype)` on the input and
`.latent_dist.sample().to(weight_dtype)` on the output, as in `sdxl_train.py`.
Stand-ins: a tiny AutoencoderKL with `encode(...).latent_dist.sample()`, a 9-channel UNet and
fine_tune.py's training step reduced to the latents/masked-latents part. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class DiagonalGaussianDistribution:
    def __init__(self, parameters):
        self.mean, self.logvar = torch.chunk(parameters, 2, dim=1)

    def sample(self):
        return self.mean + torch.exp(0.5 * self.logvar) * torch.randn_like(self.mean)

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Conv2d(3, 8, kernel_size=8, stride=8)

    def encode(self, x):
        return type("AutoencoderKLOutput", (), {"latent_dist": DiagonalGaussianDistribution(self.encoder(x))})()

class UNet2DConditionModel(nn.Module):
    def __init__(self, in_channels=9):
        super().__init__()
        self.conv_in = nn.Conv2d(in_channels, 4, 3, padding=1)

    def forward(self, sample, timesteps):
        return self.conv_in(sample)

def fine_tune_step(batch, vae, unet, vae_dtype, weight_dtype, train_inpainting=True):
    with torch.no_grad():
        latents = vae.encode(batch["images"].to(dtype=vae_dtype)).latent_dist.sample().to(weight_dtype)
        latents = latents * 0.18215
        if train_inpainting:
            masked_latents = vae.encode(batch["masked_images"].to(dtype=weight_dtype)).latent_dist.sample()
            masked_latents = masked_latents * 0.18215
            mask = torch.nn.functional.interpolate(batch["masks"], size=latents.shape[-2:]).to(weight_dtype)
    noise = torch.randn_like(latents)
    timesteps = torch.randint(0, 1000, (latents.shape[0],))
    noisy_latents = latents + noise
    if train_inpainting:
        noisy_latents = torch.cat([noisy_latents, mask, masked_latents], dim=1)
    noise_pred = unet(noisy_latents, timesteps)
    return torch.nn.functional.mse_loss(noise_pred.float(), noise.float())

weight_dtype = torch.bfloat16                  # --mixed_precision bf16
vae_dtype = torch.float32                      # --no_half_vae
vae = AutoencoderKL().to(dtype=vae_dtype)
unet = UNet2DConditionModel(in_channels=9).to(dtype=weight_dtype)
images = torch.rand(2, 3, 64, 64) * 2 - 1
masks = (torch.rand(2, 1, 64, 64) > 0.5).float()
batch = {"images": images, "masks": masks, "masked_images": images * (1 - masks)}
'''
CELL = '''
loss = fine_tune_step(batch, vae, unet, vae_dtype, weight_dtype, train_inpainting=True)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["fine_tune_step"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('masked_latents = vae.encode(batch["masked_images"].to(dtype=weight_dtype)).latent_dist.sample()',
                  'masked_latents = vae.encode(batch["masked_images"].to(dtype=vae_dtype)).latent_dist.sample().to(weight_dtype)')
CLEAN = False
