"""Look-alike: EulerDiscreteScheduler keeps `sigmas` on the CPU on purpose while the latents are on the GPU.

Source: https://github.com/huggingface/diffusers/pull/6708
diffusers' schedulers keep `self.sigmas` on the CPU ("to avoid too much CPU/GPU communication", PR 6173;
this PR makes sure they are never set to the GPU): `step()` reads `sigma = self.sigmas[self.step_index]`,
a 0-dim CPU tensor, and combines it with the GPU `model_output` and `sample`, which PyTorch allows for
0-dim CPU tensors. `timesteps` are moved to the device, the sigma table is not. Runs; no finding
expected. Stand-in: the Euler scheduler (epsilon prediction, no churn) and a denoising loop.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class EulerDiscreteScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.num_train_timesteps = num_train_timesteps
        self.step_index = None

    def set_timesteps(self, num_inference_steps, device=None):
        timesteps = torch.linspace(self.num_train_timesteps - 1, 0, num_inference_steps)
        sigmas = ((1 - self.alphas_cumprod) / self.alphas_cumprod) ** 0.5
        sigmas = sigmas.index_select(0, timesteps.long())
        sigmas = torch.cat([sigmas, torch.zeros(1)]).to(torch.float32)
        self.sigmas = sigmas
        self.timesteps = timesteps.to(device=device)
        self.step_index = 0
        self.sigmas = self.sigmas.to("cpu")  # to avoid too much CPU/GPU communication

    def scale_model_input(self, sample, timestep):
        sigma = self.sigmas[self.step_index]
        return sample / ((sigma ** 2 + 1) ** 0.5)

    def step(self, model_output, timestep, sample):
        sigma = self.sigmas[self.step_index]
        pred_original_sample = sample - sigma * model_output
        derivative = (sample - pred_original_sample) / sigma
        dt = self.sigmas[self.step_index + 1] - sigma
        prev_sample = sample + derivative * dt
        self.step_index += 1
        return prev_sample

class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
    def forward(self, x, t):
        return self.conv(x)

device = torch.device("cuda:0")
unet = UNet().to(device)
scheduler = EulerDiscreteScheduler()
scheduler.set_timesteps(4, device=device)
latents = torch.randn(1, 4, 16, 16).to(device) * 14.6
'''
CELL = '''
with torch.no_grad():
    for i in range(4):
        t = i                                     # the loop's step index (stands for timesteps[i])
        latent_model_input = scheduler.scale_model_input(latents, t)
        noise_pred = unet(latent_model_input, t)
        latents = scheduler.step(noise_pred, t, latents)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
