"""fp16 UNet with `class_embed_type="timestep"`: the f32 `time_proj(class_labels)` feeds the fp16 class embedding.

Source: https://github.com/huggingface/diffusers/pull/3137
`UNet2DConditionModel.forward` casts the output of `self.time_proj(timesteps)` to the sample's dtype
("`Timesteps` does not contain any weights and will always return f32 tensors"), but the class-label
branch (`class_embed_type == "timestep"`) passed `self.time_proj(class_labels)` straight into the fp16
`class_embedding` MLP, a float32/float16 mismatch in half-precision models. The PR adds the same cast,
`class_labels = class_labels.to(dtype=sample.dtype)`. Stand-in: diffusers' Timesteps/TimestepEmbedding
and the UNet forward reduced to the time/class embedding and one conv; CPU, bf16 for the half model.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

class Timesteps(nn.Module):
    def __init__(self, num_channels):
        super().__init__()
        self.num_channels = num_channels
    def forward(self, timesteps):
        half_dim = self.num_channels // 2
        exponent = -math.log(10000) * torch.arange(half_dim, dtype=torch.float32, device=timesteps.device) / half_dim
        emb = timesteps[:, None].float() * torch.exp(exponent)[None, :]
        return torch.cat([torch.cos(emb), torch.sin(emb)], dim=-1)

class TimestepEmbedding(nn.Module):
    def __init__(self, in_channels, time_embed_dim):
        super().__init__()
        self.linear_1 = nn.Linear(in_channels, time_embed_dim)
        self.act = nn.SiLU()
        self.linear_2 = nn.Linear(time_embed_dim, time_embed_dim)
    def forward(self, sample):
        return self.linear_2(self.act(self.linear_1(sample)))

class UNet2DConditionModel(nn.Module):
    def __init__(self, block_out=32, class_embed_type="timestep"):
        super().__init__()
        self.class_embed_type = class_embed_type
        self.time_proj = Timesteps(block_out)
        self.time_embedding = TimestepEmbedding(block_out, 4 * block_out)
        self.class_embedding = TimestepEmbedding(block_out, 4 * block_out)
        self.conv_in = nn.Conv2d(4, 4 * block_out, 3, padding=1)
        self.conv_out = nn.Conv2d(4 * block_out, 4, 3, padding=1)

    def forward(self, sample, timestep, class_labels=None):
        timesteps = timestep.expand(sample.shape[0])
        t_emb = self.time_proj(timesteps)
        # timesteps does not contain any weights and will always return f32 tensors
        t_emb = t_emb.to(dtype=sample.dtype)
        emb = self.time_embedding(t_emb)
        if class_labels is not None:
            if self.class_embed_type == "timestep":
                class_labels = self.time_proj(class_labels)
            class_emb = self.class_embedding(class_labels)
            emb = emb + class_emb
        h = self.conv_in(sample) + emb[:, :, None, None]
        return self.conv_out(h)

unet = UNet2DConditionModel().to(dtype=torch.bfloat16)       # half-precision UNet
sample = torch.randn(2, 4, 8, 8, dtype=torch.bfloat16)
timestep = torch.tensor([500])
class_labels = torch.tensor([20, 20])                          # e.g. an upscaler's noise_level
'''
CELL = '''
noise_pred = unet(sample, timestep, class_labels=class_labels)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same", "expected m1 and m2 to have the same dtype")
CULPRITS = ["unet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                class_labels = self.time_proj(class_labels)\n",
                  "                class_labels = self.time_proj(class_labels)\n                class_labels = class_labels.to(dtype=sample.dtype)\n")
CLEAN = False
