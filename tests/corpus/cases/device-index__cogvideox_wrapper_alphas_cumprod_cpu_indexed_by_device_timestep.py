"""ComfyUI-CogVideoXWrapper: `self.scheduler.alphas_cumprod[t]` with the scheduler's table on the CPU and the timestep on the GPU.

Source: https://github.com/kijai/ComfyUI-CogVideoXWrapper/issues/371
"indices should be either on cpu or on the same device as the indexed tensor (cpu) - formerly working
workflow now crashes": pipeline_cogvideox.py line 868, `alpha_prod_t = self.scheduler.alphas_cumprod[t]`,
inside the sampling loop. The scheduler keeps `alphas_cumprod` as a plain CPU tensor (it is not a
Module, nothing moves it) while the timesteps come from `scheduler.set_timesteps(..., device=device)`
on the GPU. Simulated with meta as the accelerator: indexing a CPU tensor with a meta index passes
there, so the CPU value surfaces in the next product with the latents (the stand-in indexes with the
batch-expanded `timestep`, as a 0-dim meta index cannot be read).
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

device = torch.device("meta")                       # the GPU, simulated with meta

class CogVideoXDDIMScheduler:
    def __init__(self, num_train_timesteps=1000):
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.num_train_timesteps = num_train_timesteps

    def set_timesteps(self, num_inference_steps, device=None):
        step = self.num_train_timesteps // num_inference_steps
        self.timesteps = torch.arange(0, num_inference_steps).flip(0).mul(step).to(device)

class CogVideoXTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Conv3d(16, 16, 1)
        self.t_emb = nn.Linear(1, 16)

    def forward(self, hidden_states, timestep):
        return self.proj(hidden_states) + self.t_emb(timestep.float()[:, None])[:, :, None, None, None]

class CogVideoXPipeline:
    def __init__(self, transformer, scheduler):
        self.transformer, self.scheduler = transformer, scheduler

    def __call__(self, latents, num_inference_steps=2, device=device):
        self.scheduler.set_timesteps(num_inference_steps, device=device)
        for i, t in enumerate(self.scheduler.timesteps):
            timestep = t.expand(latents.shape[0])
            noise_pred = self.transformer(latents, timestep)
            alpha_prod_t = self.scheduler.alphas_cumprod[timestep][:, None, None, None, None]
            beta_prod_t = 1 - alpha_prod_t
            pred_original = alpha_prod_t ** 0.5 * latents - beta_prod_t ** 0.5 * noise_pred
            latents = pred_original
        return latents

pipe = CogVideoXPipeline(CogVideoXTransformer().to(device), CogVideoXDDIMScheduler())
latents = torch.randn(1, 16, 13, 8, 8).to(device)    # 49 frames -> 13 latent frames
'''
CELL = '''
samples = pipe(latents, num_inference_steps=2)
'''
EXPECT_ERROR = ("is not on the expected device", "indices should be either on cpu or on the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["pipe.scheduler.alphas_cumprod"]
FIX = "namespace"
REFERENCE_FIX = '''
pipe.scheduler.alphas_cumprod = pipe.scheduler.alphas_cumprod.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
