"""Look-alike: SDXL LoRA training keeps the VAE in float32 and casts its latents to the fp16 `weight_dtype`.

Source: https://github.com/huggingface/diffusers/pull/4365
`train_text_to_image_lora_sdxl.py` keeps the SDXL VAE in float32 when no fixed VAE is given
(`vae.to(accelerator.device, dtype=torch.float32)`: the stock SDXL VAE overflows in fp16) while the UNet
and text encoders run in `weight_dtype`; the loop feeds the VAE float32 pixels and casts its output,
`model_input = model_input.to(weight_dtype)`, before noising and the UNet, and the time ids are built
with `dtype=weight_dtype`. Mixed dtypes on purpose that run: no finding expected. Stand-in: tiny VAE
encoder/UNet convs and the training step's forward part; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Conv2d(3, 4, 8, stride=8)
        self.config = type("Config", (), {"scaling_factor": 0.13025})()
    def encode(self, x):
        return self.encoder(x)

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 8, 3, padding=1)
        self.add_embedding = nn.Linear(6, 8)
        self.conv_out = nn.Conv2d(8, 4, 3, padding=1)
    def forward(self, sample, timesteps, added_cond_kwargs):
        emb = self.add_embedding(added_cond_kwargs["time_ids"])
        return self.conv_out(self.conv_in(sample) + emb[:, :, None, None])

class Args:
    pretrained_vae_model_name_or_path = None
    resolution = 64

args = Args()
weight_dtype = torch.float16                       # --mixed_precision fp16
vae = AutoencoderKL()
if args.pretrained_vae_model_name_or_path is None:
    vae.to(dtype=torch.float32)
else:
    vae.to(dtype=weight_dtype)
unet = UNet2DConditionModel().to(dtype=weight_dtype)   # frozen base UNet (LoRA layers omitted)

def compute_time_ids(original_size, crops_coords_top_left):
    target_size = (args.resolution, args.resolution)
    add_time_ids = list(original_size + crops_coords_top_left + target_size)
    add_time_ids = torch.tensor([add_time_ids])
    return add_time_ids.to(dtype=weight_dtype)

batch = {"pixel_values": torch.randn(2, 3, 64, 64), "original_sizes": [(64, 64)] * 2,
         "crop_top_lefts": [(0, 0)] * 2}
'''
CELL = '''
with torch.no_grad():
    if args.pretrained_vae_model_name_or_path is not None:
        pixel_values = batch["pixel_values"].to(dtype=weight_dtype)
    else:
        pixel_values = batch["pixel_values"]
    model_input = vae.encode(pixel_values) * vae.config.scaling_factor
    if args.pretrained_vae_model_name_or_path is None:
        model_input = model_input.to(weight_dtype)
    noise = torch.randn_like(model_input)
    timesteps = torch.randint(0, 1000, (model_input.shape[0],))
    noisy_model_input = model_input + noise
    add_time_ids = torch.cat([compute_time_ids(s, c) for s, c in zip(batch["original_sizes"], batch["crop_top_lefts"])])
    model_pred = unet(noisy_model_input, timesteps, added_cond_kwargs={"time_ids": add_time_ids})
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
