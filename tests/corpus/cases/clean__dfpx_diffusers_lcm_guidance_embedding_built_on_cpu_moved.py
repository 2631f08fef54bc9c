"""Look-alike: the LCM pipeline builds the guidance-scale embedding on the CPU and moves it to the latents' device.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/pipelines/latent_consistency_models/pipeline_latent_consistency_text2img.py
In `LatentConsistencyModelPipeline.__call__`: `w = torch.tensor(self.guidance_scale - 1).repeat(bs)`
(a CPU tensor) and `w_embedding = self.get_guidance_scale_embedding(w, embedding_dim=self.unet.config.time_cond_proj_dim).to(device=device, dtype=latents.dtype)`;
the embedding is computed on the CPU (`torch.arange` without a device inside
`get_guidance_scale_embedding`) and moved before it reaches the cuda UNet as `timestep_cond`.
Stand-ins: a tiny UNet with `time_cond_proj_dim`, the pipeline's embedding helper and loop.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from types import SimpleNamespace
import torch
import torch.nn as nn

class UNet2DConditionModel(nn.Module):
    def __init__(self, time_cond_proj_dim=16):
        super().__init__()
        self.config = SimpleNamespace(time_cond_proj_dim=time_cond_proj_dim)
        self.cond_proj = nn.Linear(time_cond_proj_dim, 4)
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
    def forward(self, latents, t, timestep_cond=None):
        return self.conv(latents) + self.cond_proj(timestep_cond)[:, :, None, None]

class LatentConsistencyModelPipeline:
    def __init__(self, unet):
        self.unet = unet
        self.guidance_scale = 8.0
    def to(self, device):
        self.unet.to(device)
        self._execution_device = torch.device(device)
        return self

    def get_guidance_scale_embedding(self, w, embedding_dim=512, dtype=torch.float32):
        w = w * 1000.0
        half_dim = embedding_dim // 2
        emb = math.log(10000.0) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, dtype=dtype) * -emb)
        emb = w.to(dtype)[:, None] * emb[None, :]
        emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1)
        return emb

    @torch.no_grad()
    def __call__(self, num_inference_steps=4, guidance_scale=8.0):
        self.guidance_scale = guidance_scale
        device = self._execution_device
        latents = torch.randn(1, 4, 8, 8, device=device)
        bs = latents.shape[0]
        w = torch.tensor(self.guidance_scale - 1).repeat(bs)
        w_embedding = self.get_guidance_scale_embedding(w, embedding_dim=self.unet.config.time_cond_proj_dim).to(
            device=device, dtype=latents.dtype
        )
        for t in range(num_inference_steps):
            model_pred = self.unet(latents, t, timestep_cond=w_embedding)
            latents = latents - 0.1 * model_pred
        return SimpleNamespace(images=latents)

pipe = LatentConsistencyModelPipeline(UNet2DConditionModel()).to("cuda:0")
'''
CELL = '''
images = pipe(num_inference_steps=4, guidance_scale=8.0).images
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
