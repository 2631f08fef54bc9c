"""SD.Next LTX2: prompt embeddings stay parked on the CPU between stages and `_latent_pass` moves them to the device right before the pipeline call.

Source: https://github.com/vladmandic/sdnext/blob/master/modules/ltx/ltx_process.py
The LTX path encodes the prompts once and keeps the cached `prompt_embeds` / attention masks on the
CPU between the base, upsample and refine stages to save VRAM. `_latent_pass(...)` starts with
`prompt_embeds, prompt_attention_mask, negative_prompt_embeds, negative_prompt_attention_mask =
_prompt_tensors_to_device(...)`, where `_prompt_tensors_to_device` returns
`t.to(device=devices.device)` for every tensor, and only then builds the pipeline's `base_args`. CPU
prompt tensors next to a GPU pipeline on purpose: it runs.
Stand-ins: `devices.device`, the LTX2 pipeline reduced to its text connectors and one transformer
step, `_latent_pass` reduced to the prompt and latent arguments; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

devices = SimpleNamespace(device=torch.device("cuda:0"))

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

class LTX2Pipeline:
    def __init__(self, connectors, transformer):
        self.connectors = connectors
        self.transformer = transformer

    @torch.no_grad()
    def __call__(self, prompt_embeds, prompt_attention_mask, negative_prompt_embeds,
                 negative_prompt_attention_mask, latents, guidance_scale=3.0, output_type="latent"):
        prompt_embeds = torch.cat([negative_prompt_embeds, prompt_embeds], dim=0)
        prompt_attention_mask = torch.cat([negative_prompt_attention_mask, prompt_attention_mask], dim=0)
        encoder_hidden_states = self.connectors(prompt_embeds, prompt_attention_mask)
        noise_pred = self.transformer(torch.cat([latents] * 2), encoder_hidden_states)
        noise_uncond, noise_text = noise_pred.chunk(2)
        return latents - 0.1 * (noise_uncond + guidance_scale * (noise_text - noise_uncond))

def _prompt_tensors_to_device(*tensors):
    return tuple(t.to(device=devices.device) if torch.is_tensor(t) else t for t in tensors)

def _latent_pass(pipe, prompt_embeds, prompt_attention_mask, negative_prompt_embeds,
                 negative_prompt_attention_mask, latents, guidance_scale):
    prompt_embeds, prompt_attention_mask, negative_prompt_embeds, negative_prompt_attention_mask = _prompt_tensors_to_device(
        prompt_embeds,
        prompt_attention_mask,
        negative_prompt_embeds,
        negative_prompt_attention_mask,
    )
    base_args = {
        'prompt_embeds': prompt_embeds,
        'prompt_attention_mask': prompt_attention_mask,
        'negative_prompt_embeds': negative_prompt_embeds,
        'negative_prompt_attention_mask': negative_prompt_attention_mask,
        'latents': latents,
        'guidance_scale': guidance_scale,
        'output_type': 'latent',
    }
    return pipe(**base_args)

text_encoder = nn.Embedding(100, 32).to(devices.device)
pipe = LTX2Pipeline(LTX2TextConnectors().to(devices.device), LTX2Transformer().to(devices.device))
ids = torch.randint(0, 100, (2, 16)).to(devices.device)
embeds = text_encoder(ids)
# cached once, parked on the CPU between stages
prompt_embeds, negative_prompt_embeds = embeds[:1].to("cpu"), embeds[1:].to("cpu")
prompt_attention_mask = torch.ones(1, 16, dtype=torch.long)
negative_prompt_attention_mask = torch.ones(1, 16, dtype=torch.long)
latents = torch.randn(1, 64, 8, device=devices.device)
'''
CELL = '''
base_latents = _latent_pass(pipe, prompt_embeds, prompt_attention_mask, negative_prompt_embeds,
                            negative_prompt_attention_mask, latents, guidance_scale=3.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
