"""SimpleTuner SD3 validation images: the timestep (and then the latents) reach the GPU transformer from the CPU.

Source: https://github.com/bghira/SimpleTuner/pull/562
Training an SD3 LoRA, validation randomly failed with "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu! (when checking argument for argument mat1 in method
wrapper_CUDA_addmm)" (issue 546). Debug prints showed the timestep was sometimes on the CPU; after
moving it to the GPU the same error came from the latents, also on the CPU. The PR moves both the
timestep and the latents to the GPU before the transformer call. Stand-in: an SD3 transformer reduced
to its patch, time and context embedders, called as in the validation pipeline's denoising step;
the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import math
import torch
from torch import nn

def get_timestep_embedding(timesteps, dim):
    half = dim // 2
    exponent = -math.log(10000) * torch.arange(half, dtype=torch.float32, device=timesteps.device) / half
    emb = timesteps[:, None].float() * torch.exp(exponent)[None, :]
    return torch.cat([torch.cos(emb), torch.sin(emb)], dim=-1)

class SD3Transformer2DModel(nn.Module):
    def __init__(self, in_ch=16, dim=32, joint_dim=48, pooled_dim=24):
        super().__init__()
        self.pos_embed = nn.Conv2d(in_ch, dim, 2, stride=2)
        self.timestep_embedder = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.text_embedder = nn.Linear(pooled_dim, dim)
        self.context_embedder = nn.Linear(joint_dim, dim)
        self.proj_out = nn.Linear(dim, in_ch * 4)

    def forward(self, hidden_states, timestep, encoder_hidden_states, pooled_projections):
        temb = self.timestep_embedder(get_timestep_embedding(timestep, 32)) + self.text_embedder(pooled_projections)
        h = self.pos_embed(hidden_states).flatten(2).transpose(1, 2)
        ctx = self.context_embedder(encoder_hidden_states)
        return self.proj_out(h + temb[:, None] + ctx.mean(1, keepdim=True))

device = torch.device("cuda:0")
transformer = SD3Transformer2DModel().to(device)
prompt_embeds = torch.randn(2, 7, 48).to(device)                  # cached text embeds, cfg batch
pooled_prompt_embeds = torch.randn(2, 24).to(device)
generator = torch.Generator(device="cpu").manual_seed(10)         # validation_seed_source=cpu
latents = torch.randn(1, 16, 8, 8, generator=generator)           # prepared on the generator's device
timestep = torch.tensor([1000.0, 1000.0])                          # scheduler timestep, expanded, CPU
'''
CELL = '''
latent_model_input = torch.cat([latents] * 2)
noise_pred = transformer(
    hidden_states=latent_model_input,
    timestep=timestep,
    encoder_hidden_states=prompt_embeds,
    pooled_projections=pooled_prompt_embeds,
)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["timestep", "latents"]
FIX = "namespace"
REFERENCE_FIX = '''
timestep = timestep.to(device)
latents = latents.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
