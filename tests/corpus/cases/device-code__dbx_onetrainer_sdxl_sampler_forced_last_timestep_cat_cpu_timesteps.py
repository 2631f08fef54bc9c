"""OneTrainer SDXL sampling during training with the zero-terminal-SNR option: a cuda:0 `last_timestep` is concatenated with the scheduler's CPU timesteps.

Source: https://github.com/Nerogar/OneTrainer/issues/52
Sampling during SDXL training failed with "Expected all tensors to be on the same device, but found at least
two devices, cuda:0 and cpu! (when checking argument for argument tensors in method wrapper_CUDA_cat)"
("Error during sampling, proceeding without sampling"); the maintainer answered "Fixed" with
"fix SDXL sampling when rescale noise scheduler is enabled" (a4100e4). `create.create_noise_scheduler` calls
`scheduler.set_timesteps(num_inference_timesteps)` without a device, so `noise_scheduler.timesteps` is on the
CPU, and with `force_last_timestep` the sampler does
`timesteps = torch.cat([last_timestep, timesteps])` with `last_timestep` made on `self.train_device`. The fix
sets the timesteps on the train device before reading them:
`noise_scheduler.set_timesteps(diffusion_steps, device=self.train_device)`.
Stand-ins: diffusers' DDIMScheduler reduced to its schedule, `set_timesteps`, `scale_model_input` and a `step`
that gathers with `index_select` (the simulated GPU cannot index), `create_noise_scheduler` for the DDIM case, an
SDXL U-Net reduced to a conv; the prompt embeddings are made directly on the device and the CPU-seeded generator
is left out. The sampler's local variables are the cell's names; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from enum import Enum
from types import SimpleNamespace
import torch
import torch.nn as nn

class DDIMScheduler:                                  # diffusers (stand-in)
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012, steps_offset=1,
                 prediction_type="epsilon", **kwargs):
        self.config = SimpleNamespace(num_train_timesteps=num_train_timesteps, steps_offset=steps_offset,
                                      prediction_type=prediction_type)
        betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.init_noise_sigma = 1.0
        self.timesteps = torch.arange(0, num_train_timesteps).flip(0)
    def set_timesteps(self, num_inference_steps, device=None):
        self.num_inference_steps = num_inference_steps
        step_ratio = self.config.num_train_timesteps // num_inference_steps
        timesteps = (torch.arange(0, num_inference_steps) * step_ratio).flip(0).long() + self.config.steps_offset
        self.timesteps = timesteps.to(device)
    def scale_model_input(self, sample, timestep=None):
        return sample
    def step(self, model_output, timestep, sample, return_dict=False, **kwargs):
        a = torch.index_select(self.alphas_cumprod.to(sample.device), 0, timestep.reshape(1).clamp(max=999))
        a = a.to(sample.dtype)
        pred_original = (sample - (1 - a) ** 0.5 * model_output) / a ** 0.5
        return (pred_original,)

class NoiseScheduler(Enum):
    DDIM = "DDIM"

def create_noise_scheduler(noise_scheduler, original_noise_scheduler=None, num_inference_timesteps=None):
    num_inference_timesteps = num_inference_timesteps or 20
    num_train_timesteps = original_noise_scheduler.config.num_train_timesteps
    match noise_scheduler:
        case NoiseScheduler.DDIM:
            scheduler = DDIMScheduler(num_train_timesteps=num_train_timesteps, steps_offset=1,
                                      prediction_type=original_noise_scheduler.config.prediction_type)
    if scheduler:
        scheduler.set_timesteps(num_inference_timesteps)
    return scheduler

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 4, 3, padding=1)
        self.config = SimpleNamespace(in_channels=4)
    @property
    def dtype(self):
        return self.conv_in.weight.dtype
    def forward(self, sample, timestep, encoder_hidden_states, added_cond_kwargs=None):
        return (self.conv_in(sample),)

train_device = torch.device("cuda:0")
model = SimpleNamespace(noise_scheduler=DDIMScheduler())
unet = UNet2DConditionModel().to(train_device)

# StableDiffusionXLSampler.__sample_base, up to the timesteps
diffusion_steps = 4
force_last_timestep = True                             # "rescale noise scheduler" enabled
cfg_scale = 7.0
height = width = 64
vae_scale_factor = 8
noise_scheduler = create_noise_scheduler(NoiseScheduler.DDIM, model.noise_scheduler, diffusion_steps)
combined_prompt_embedding = torch.randn(2, 77, 2048, device=train_device)
'''
CELL = '''
# prepare timesteps
timesteps = noise_scheduler.timesteps

if force_last_timestep:
    last_timestep = torch.ones(1, device=train_device, dtype=torch.int64) \\
                    * (noise_scheduler.config.num_train_timesteps - 1)
    # add the final timestep to force predicting with zero snr
    timesteps = torch.cat([last_timestep, timesteps])

num_channels_latents = unet.config.in_channels
latent_image = torch.randn(
    size=(1, num_channels_latents, height // vae_scale_factor, width // vae_scale_factor),
    device=train_device,
    dtype=unet.dtype
) * noise_scheduler.init_noise_sigma

for i, timestep in enumerate(timesteps):
    latent_model_input = torch.cat([latent_image] * 2)
    latent_model_input = noise_scheduler.scale_model_input(latent_model_input, timestep)
    noise_pred = unet(sample=latent_model_input, timestep=timestep,
                      encoder_hidden_states=combined_prompt_embedding)[0]
    noise_pred_negative, noise_pred_positive = noise_pred.chunk(2)
    noise_pred = noise_pred_negative + cfg_scale * (noise_pred_positive - noise_pred_negative)
    latent_image = noise_scheduler.step(noise_pred, timestep, latent_image, return_dict=False)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["noise_scheduler"]
FIX = "namespace"
REFERENCE_FIX = '''
noise_scheduler.set_timesteps(diffusion_steps, device=train_device)
'''
REFERENCE_EDIT = None
CLEAN = False
