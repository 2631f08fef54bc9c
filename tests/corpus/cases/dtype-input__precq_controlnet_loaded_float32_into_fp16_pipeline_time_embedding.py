"""StableDiffusionControlNetPipeline in float16 with a ControlNet loaded in float32: the ControlNet's time-embedding linear fails.

Source: https://github.com/huggingface/diffusers/issues/4860
"RuntimeError: mat1 and mat2 must have the same dtype (diffusers/models/embeddings.py:194)": the
user loaded the Stable Diffusion model (and LoRA) in torch.float16 and built a
StableDiffusionControlNetPipeline; printing the failing linear layer's weight showed
torch.float32; everything in float32 worked. The maintainer's answer loads the ControlNet with
`ControlNetModel.from_pretrained("lllyasviel/sd-controlnet-canny", torch_dtype=torch.float16)`
before passing it to the float16 pipeline: a component passed to `from_pretrained` keeps its
own dtype. In the ControlNet the float32 sinusoidal timestep features are cast to the sample's
dtype (fp16) and meet the float32 `TimestepEmbedding.linear_1`.
Stand-ins: ControlNet/UNet with diffusers' `get_timestep_embedding` + `TimestepEmbedding`, a
pipeline that keeps passed-in components as they are; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
from types import SimpleNamespace
import torch
from torch import nn

def get_timestep_embedding(timesteps, embedding_dim, max_period=10000):
    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(0, half_dim, dtype=torch.float32) / half_dim
    emb = timesteps[:, None].float() * torch.exp(exponent)[None, :]
    return torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)

class TimestepEmbedding(nn.Module):
    def __init__(self, in_channels, time_embed_dim):
        super().__init__()
        self.linear_1 = nn.Linear(in_channels, time_embed_dim)
        self.act = nn.SiLU()
        self.linear_2 = nn.Linear(time_embed_dim, time_embed_dim)

    def forward(self, sample):
        return self.linear_2(self.act(self.linear_1(sample)))

class _TimeConditioned(nn.Module):
    def __init__(self):
        super().__init__()
        self.time_embedding = TimestepEmbedding(16, 32)
        self.conv_in = nn.Conv2d(4, 32, 3, padding=1)

    def embed(self, sample, timestep):
        timesteps = torch.full((sample.shape[0],), timestep)
        t_emb = get_timestep_embedding(timesteps, 16).to(dtype=sample.dtype)
        emb = self.time_embedding(t_emb)
        return self.conv_in(sample) + emb[:, :, None, None]

class ControlNetModel(_TimeConditioned):
    def __init__(self):
        super().__init__()
        self.controlnet_cond_embedding = nn.Conv2d(3, 32, 8, stride=8)

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        return cls().to(torch_dtype)

    def forward(self, sample, timestep, encoder_hidden_states, controlnet_cond):
        return self.embed(sample, timestep) + self.controlnet_cond_embedding(controlnet_cond)

class UNet2DConditionModel(_TimeConditioned):
    def __init__(self):
        super().__init__()
        self.conv_out = nn.Conv2d(32, 4, 3, padding=1)

    def forward(self, sample, timestep, encoder_hidden_states, down_block_additional_residuals=None):
        h = self.embed(sample, timestep)
        if down_block_additional_residuals is not None:
            h = h + down_block_additional_residuals
        return self.conv_out(h)

class StableDiffusionControlNetPipeline:
    def __init__(self, unet, controlnet):
        self.unet, self.controlnet = unet, controlnet

    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, controlnet, torch_dtype=torch.float32):
        return cls(UNet2DConditionModel().to(torch_dtype), controlnet)

    def to(self, device):
        self.unet.to(device)
        self.controlnet.to(device)
        return self

    @torch.no_grad()
    def __call__(self, prompt, image, num_inference_steps=3):
        dtype = self.unet.conv_in.weight.dtype
        prompt_embeds = torch.randn(len(prompt), 7, 32, dtype=dtype)
        cond = image.to(dtype)
        latents = torch.randn(len(prompt), 4, 8, 8, dtype=dtype)
        for t in range(num_inference_steps, 0, -1):
            res = self.controlnet(latents, t, prompt_embeds, cond)
            latents = latents - 0.1 * self.unet(latents, t, prompt_embeds, down_block_additional_residuals=res)
        return SimpleNamespace(images=[latents])

image = torch.rand(1, 3, 64, 64)
pipeline_call = {"prompt": ["masterpiece, best quality, 1girl"], "image": image}

controlnet = ControlNetModel.from_pretrained("lllyasviel/sd-controlnet-canny")
pipeline = StableDiffusionControlNetPipeline.from_pretrained(
    pretrained_model_name_or_path="stablediffusionapi/counterfeit-v30",
    controlnet=controlnet,
    torch_dtype=torch.float16)
pipeline.to("cpu")          # "cuda" in the report
'''
CELL = '''
image = pipeline(**pipeline_call).images[0]
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["controlnet"]
FIX = "namespace"
REFERENCE_FIX = '''
controlnet.half()
'''
REFERENCE_EDIT = None
CLEAN = False
