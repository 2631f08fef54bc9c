"""Look-alike: SDXL's micro-conditioning `add_time_ids` are built as a CPU tensor and moved to the device in `__call__`.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/pipelines/stable_diffusion_xl/pipeline_stable_diffusion_xl.py
`_get_add_time_ids` returns `torch.tensor([add_time_ids], dtype=dtype)` (original size, crop
coordinates, target size: no device), and `__call__` then does
`add_text_embeds = add_text_embeds.to(device)` and
`add_time_ids = add_time_ids.to(device).repeat(batch_size * num_images_per_prompt, 1)` before the
UNet's `added_cond_kwargs`. The CPU tensor in between is by design.
Stand-ins: a tiny SDXL UNet with the add-embedding projection, the pipeline's two methods.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_embedding = nn.Linear(6 + 16, 4)
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
    def forward(self, latents, t, encoder_hidden_states, added_cond_kwargs):
        add = torch.cat([added_cond_kwargs["text_embeds"], added_cond_kwargs["time_ids"] / 1024], dim=-1)
        return self.conv(latents) + self.add_embedding(add)[:, :, None, None]

class StableDiffusionXLPipeline:
    def __init__(self, unet):
        self.unet = unet
    def to(self, device):
        self.unet.to(device)
        self._execution_device = torch.device(device)
        return self

    def _get_add_time_ids(self, original_size, crops_coords_top_left, target_size, dtype):
        add_time_ids = list(original_size + crops_coords_top_left + target_size)
        add_time_ids = torch.tensor([add_time_ids], dtype=dtype)
        return add_time_ids

    @torch.no_grad()
    def __call__(self, prompt_embeds, pooled_prompt_embeds, height=1024, width=1024,
                 num_inference_steps=3, num_images_per_prompt=1):
        device = self._execution_device
        batch_size = prompt_embeds.shape[0]
        add_text_embeds = pooled_prompt_embeds
        add_time_ids = self._get_add_time_ids((height, width), (0, 0), (height, width), dtype=prompt_embeds.dtype)
        prompt_embeds = prompt_embeds.to(device)
        add_text_embeds = add_text_embeds.to(device)
        add_time_ids = add_time_ids.to(device).repeat(batch_size * num_images_per_prompt, 1)
        latents = torch.randn(batch_size, 4, 8, 8, device=device)
        for t in range(num_inference_steps):
            added_cond_kwargs = {"text_embeds": add_text_embeds, "time_ids": add_time_ids}
            latents = latents - 0.1 * self.unet(latents, t, prompt_embeds, added_cond_kwargs=added_cond_kwargs)
        return SimpleNamespace(images=latents)

pipe = StableDiffusionXLPipeline(UNet2DConditionModel()).to("cuda:0")
prompt_embeds = torch.randn(1, 7, 32, device="cuda:0")
pooled_prompt_embeds = torch.randn(1, 16, device="cuda:0")
'''
CELL = '''
image = pipe(prompt_embeds=prompt_embeds, pooled_prompt_embeds=pooled_prompt_embeds, num_inference_steps=3).images
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
