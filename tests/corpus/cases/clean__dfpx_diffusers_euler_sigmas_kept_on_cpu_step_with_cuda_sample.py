"""Look-alike: EulerDiscreteScheduler keeps its sigmas on the CPU on purpose while the latents and UNet are on cuda:0.

Source: https://github.com/huggingface/diffusers/blob/main/src/diffusers/schedulers/scheduling_euler_discrete.py
`set_timesteps(num_inference_steps, device=device)` puts `timesteps` on the device but ends with
`self.sigmas = self.sigmas.to("cpu")  # to avoid too much CPU/GPU communication`; `scale_model_input`
and `step` pick `sigma = self.sigmas[self.step_index]` by a Python int, a 0-dim CPU tensor that
PyTorch combines with cuda tensors like a scalar. CPU sigmas next to a cuda sample are right.
Stand-in: the scheduler reduced to sigmas, step counter, scale_model_input and the Euler step
(no churn), a tiny UNet; the loop rebuilds each cuda timestep instead of iterating
`scheduler.timesteps` (a fake cuda tensor cannot be sliced in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class EulerDiscreteScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        betas = np.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps, dtype=np.float32) ** 2
        self.alphas_cumprod = np.cumprod(1.0 - betas)
        self.num_train_timesteps = num_train_timesteps
        self._step_index = None

    @property
    def init_noise_sigma(self):
        return float((self._sigma_max ** 2 + 1) ** 0.5)

    def set_timesteps(self, num_inference_steps, device=None):
        timesteps = np.linspace(0, self.num_train_timesteps - 1, num_inference_steps, dtype=np.float32)[::-1].copy()
        sigmas = ((1 - self.alphas_cumprod) / self.alphas_cumprod) ** 0.5
        sigmas = np.interp(timesteps, np.arange(0, len(sigmas)), sigmas)
        self._sigma_max = float(sigmas.max())
        sigmas = np.concatenate([sigmas, [0.0]]).astype(np.float32)
        self.timesteps = torch.from_numpy(timesteps).to(device=device)
        self.sigmas = torch.from_numpy(sigmas)
        self._step_index = 0
        self.sigmas = self.sigmas.to("cpu")  # to avoid too much CPU/GPU communication

    def scale_model_input(self, sample, timestep):
        sigma = self.sigmas[self._step_index]
        return sample / ((sigma ** 2 + 1) ** 0.5)

    def step(self, model_output, timestep, sample):
        sigma = self.sigmas[self._step_index]
        pred_original_sample = sample - sigma * model_output
        derivative = (sample - pred_original_sample) / sigma
        dt = self.sigmas[self._step_index + 1] - sigma
        prev_sample = sample + derivative * dt
        self._step_index += 1
        return prev_sample

class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.t_proj = nn.Linear(1, 4)
    def forward(self, x, t):
        return self.conv(x) + self.t_proj(t.reshape(1, 1) / 1000)[:, :, None, None]

device = torch.device("cuda:0")
unet = UNet().to(device)
scheduler = EulerDiscreteScheduler()
scheduler.set_timesteps(4, device=device)
latents = torch.randn(1, 4, 8, 8, device=device) * scheduler.init_noise_sigma
'''
CELL = '''
with torch.no_grad():
    for i in range(4):
        t = torch.full((1,), 999.0 - 333.0 * i, device=device)
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
