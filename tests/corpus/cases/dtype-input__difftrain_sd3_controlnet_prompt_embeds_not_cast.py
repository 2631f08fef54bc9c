"""SD3 ControlNet training with bf16: the precomputed `prompt_embeds` from the batch stay float32.

Source: https://github.com/huggingface/diffusers/pull/11051
`train_controlnet_sd3.py --mixed_precision bf16` failed in the forward passes: the script moved
`batch["prompt_embeds"]` and `batch["pooled_prompt_embeds"]` to the device but, unlike the pixel
values, never cast them to `weight_dtype`, so float32 embeddings met the bf16 transformer/ControlNet
weights (issue 11050). The PR casts both to `weight_dtype`. Stand-in: the SD3 ControlNet's context and
pooled projections (`context_embedder`, `time_text_embed`) as small Linear layers; CPU only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class SD3ControlNetModel(nn.Module):
    def __init__(self, in_ch=16, dim=32, joint_dim=64, pooled_dim=48):
        super().__init__()
        self.pos_embed = nn.Conv2d(in_ch, dim, 2, stride=2)
        self.controlnet_cond_embedding = nn.Conv2d(in_ch, dim, 2, stride=2)
        self.context_embedder = nn.Linear(joint_dim, dim)
        self.time_text_embed = nn.Linear(pooled_dim + 1, dim)
        self.block = nn.Linear(dim, dim)

    def forward(self, hidden_states, controlnet_cond, encoder_hidden_states, pooled_projections, timestep):
        h = self.pos_embed(hidden_states) + self.controlnet_cond_embedding(controlnet_cond)
        h = h.flatten(2).transpose(1, 2)
        temb = self.time_text_embed(torch.cat([pooled_projections, timestep[:, None].to(pooled_projections.dtype)], -1))
        ctx = self.context_embedder(encoder_hidden_states)
        return self.block(h + temb[:, None] + ctx.mean(1, keepdim=True))

weight_dtype = torch.bfloat16                      # args.mixed_precision == "bf16"
controlnet = SD3ControlNetModel().to(dtype=weight_dtype)
batch = {
    "pixel_values": torch.randn(2, 16, 8, 8),
    "conditioning_pixel_values": torch.randn(2, 16, 8, 8),
    "prompt_embeds": torch.randn(2, 7, 64),          # precomputed with compute_embeddings (fp32)
    "pooled_prompt_embeds": torch.randn(2, 48),
}
model_input = batch["pixel_values"].to(dtype=weight_dtype)
controlnet_image = batch["conditioning_pixel_values"].to(dtype=weight_dtype)
noisy_model_input = model_input + torch.randn_like(model_input)
timesteps = torch.tensor([500., 250.])
prompt_embeds = batch["prompt_embeds"]
pooled_prompt_embeds = batch["pooled_prompt_embeds"]
'''
CELL = '''
control_block_res_samples = controlnet(
    hidden_states=noisy_model_input,
    controlnet_cond=controlnet_image,
    encoder_hidden_states=prompt_embeds,
    pooled_projections=pooled_prompt_embeds,
    timestep=timesteps,
)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same", "expected m1 and m2 to have the same dtype")
CULPRITS = ["prompt_embeds", "pooled_prompt_embeds"]
FIX = "namespace"
REFERENCE_FIX = '''
prompt_embeds = batch["prompt_embeds"].to(dtype=weight_dtype)
pooled_prompt_embeds = batch["pooled_prompt_embeds"].to(dtype=weight_dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
