"""DreamBooth inpainting LoRA with `--mixed_precision=fp16`: the resized float32 `mask` upcasts the UNet input it is concatenated into.

Source: https://github.com/huggingface/diffusers/pull/3138
"fix mixed precision training on train_dreambooth_inpaint_lora": "If we select --mixed_precision on this
script we get an error of mixing floats and half. This cast fixes it." The script casts the UNet, VAE and text
encoder to `weight_dtype` (fp16), encodes the images to fp16 latents, but builds the latent-sized `mask` with
`torch.nn.functional.interpolate` from the collated float32 masks; `torch.cat([noisy_latents, mask,
masked_latents], dim=1)` then promotes the UNet input to float32 and the fp16 `conv_in` refuses it. The fix
appends `.to(dtype=weight_dtype)` to the stacked `mask`. Stand-ins: tiny fp16 `UNet2DConditionModel`
(9-channel conv_in, cross-attention projection) and CLIP text encoder; the VAE latents are given directly.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn


class CLIPTextModel(nn.Module):
    def __init__(self, vocab=64, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, input_ids):
        return (self.proj(self.embed(input_ids)),)


class UNet2DConditionModel(nn.Module):
    def __init__(self, in_channels=9, ch=8, cross=16):
        super().__init__()
        self.conv_in = nn.Conv2d(in_channels, ch, 3, padding=1)
        self.to_k = nn.Linear(cross, ch)
        self.conv_out = nn.Conv2d(ch, 4, 3, padding=1)

    def forward(self, sample, timestep, encoder_hidden_states):
        h = self.conv_in(sample) + self.to_k(encoder_hidden_states).mean(1)[:, :, None, None]
        return SimpleNamespace(sample=self.conv_out(torch.nn.functional.silu(h)))


args = SimpleNamespace(resolution=64, mixed_precision="fp16")
weight_dtype = torch.float16 if args.mixed_precision == "fp16" else torch.float32
unet = UNet2DConditionModel().to(dtype=weight_dtype)
text_encoder = CLIPTextModel().to(dtype=weight_dtype)

# collated batch: masks come from random_mask() -> float32 numpy -> torch
batch = {"input_ids": torch.randint(0, 64, (2, 7)),
         "masks": torch.randint(0, 2, (2, 1, 1, 64, 64)).float()}

# latents / masked latents from the fp16 VAE, already scaled
latents = torch.randn(2, 4, 8, 8, dtype=weight_dtype)
masked_latents = torch.randn(2, 4, 8, 8, dtype=weight_dtype)

masks = batch["masks"]
# resize the mask to latents shape as we concatenate the mask to the latents
mask = torch.stack(
    [
        torch.nn.functional.interpolate(mask, size=(args.resolution // 8, args.resolution // 8))
        for mask in masks
    ]
)
mask = mask.reshape(-1, 1, args.resolution // 8, args.resolution // 8)

noise = torch.randn_like(latents)
timesteps = torch.randint(0, 1000, (latents.shape[0],)).long()
noisy_latents = latents + noise          # noise_scheduler.add_noise(latents, noise, timesteps)
'''
CELL = '''
# concatenate the noised latents with the mask and the masked latents
latent_model_input = torch.cat([noisy_latents, mask, masked_latents], dim=1)

# Get the text embedding for conditioning
encoder_hidden_states = text_encoder(batch["input_ids"])[0]

# Predict the noise residual
noise_pred = unet(latent_model_input, timesteps, encoder_hidden_states).sample
'''
EXPECT_ERROR = ("should be the same", "must have the same dtype", "expected scalar type")
CULPRITS = ["mask"]
FIX = "namespace"
REFERENCE_FIX = '''
mask = mask.to(dtype=weight_dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
