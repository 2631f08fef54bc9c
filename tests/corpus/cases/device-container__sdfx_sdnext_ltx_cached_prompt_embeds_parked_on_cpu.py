"""SD.Next LTX2 refine/upsample: prompt embeddings cached and parked on the CPU are fed back to a pipeline whose connectors sit on the GPU.

Source: https://github.com/vladmandic/sdnext/pull/4887
LTX2 refine/upsample generation failed with "Expected all tensors to be on the same device, but got
mat1 is on cpu, different from other tensors on cuda:0 (when checking argument in method
wrapper_CUDA_addmm)". SD.Next encodes the prompts once and parks the cached prompt tensors on the
CPU between stages; recent Diffusers LTX2 code feeds precomputed `prompt_embeds` straight into
`self.connectors(...)` without moving them to the execution device, and with offload disabled the
connectors are already on the GPU. The fix moves the cached prompt embeddings and attention masks
back to the active device before the base and refine pipeline calls.
Stand-ins: a text encoder, the LTX2 pipeline reduced to its connector projection and one
transformer step; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class LTX2TextConnectors(nn.Module):
    def __init__(self, dim=32, inner=48):
        super().__init__()
        self.proj = nn.Linear(dim, inner)

    def forward(self, prompt_embeds, prompt_attention_mask):
        hidden = self.proj(prompt_embeds)
        return hidden * prompt_attention_mask.unsqueeze(-1).to(hidden.dtype)

class LTX2Transformer(nn.Module):
    def __init__(self, channels=8, inner=48):
        super().__init__()
        self.proj_in = nn.Linear(channels, inner)
        self.proj_out = nn.Linear(inner, channels)

    def forward(self, latents, encoder_hidden_states):
        h = self.proj_in(latents)
        h = h + encoder_hidden_states.mean(dim=1, keepdim=True)
        return self.proj_out(h)

class LTX2Pipeline:                            # diffusers LTX2 pipeline, offload disabled
    def __init__(self, connectors, transformer):
        self.connectors = connectors
        self.transformer = transformer

    @torch.no_grad()
    def __call__(self, prompt_embeds, prompt_attention_mask, negative_prompt_embeds,
                 negative_prompt_attention_mask, latents, guidance_scale=3.0, output_type="latent"):
        prompt_embeds = torch.cat([negative_prompt_embeds, prompt_embeds], dim=0)
        prompt_attention_mask = torch.cat([negative_prompt_attention_mask, prompt_attention_mask], dim=0)
        encoder_hidden_states = self.connectors(prompt_embeds, prompt_attention_mask)
        latent_model_input = torch.cat([latents] * 2)
        noise_pred = self.transformer(latent_model_input, encoder_hidden_states)
        noise_uncond, noise_text = noise_pred.chunk(2)
        noise_pred = noise_uncond + guidance_scale * (noise_text - noise_uncond)
        return latents - 0.1 * noise_pred

device = torch.device("cuda:0")
text_encoder = nn.Embedding(100, 32).to(device)
pipe = LTX2Pipeline(LTX2TextConnectors().to(device), LTX2Transformer().to(device))

def encode(ids):
    ids = ids.to(device)
    return text_encoder(ids), torch.ones(ids.shape, dtype=torch.long, device=device)

pos_embeds, pos_mask = encode(torch.randint(0, 100, (1, 16)))
neg_embeds, neg_mask = encode(torch.randint(0, 100, (1, 16)))
# the LTX path caches the encoded prompts and parks them on the CPU between stages
cached_prompts = {
    "prompt_embeds": pos_embeds.to("cpu"),
    "prompt_attention_mask": pos_mask.to("cpu"),
    "negative_prompt_embeds": neg_embeds.to("cpu"),
    "negative_prompt_attention_mask": neg_mask.to("cpu"),
}
latents = torch.randn(1, 64, 8, device=device)
'''
CELL = '''
base_latents = pipe(**cached_prompts, latents=latents, guidance_scale=3.0, output_type="latent")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["cached_prompts"]
FIX = "namespace"
REFERENCE_FIX = '''
cached_prompts = {k: v.to(device) for k, v in cached_prompts.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
