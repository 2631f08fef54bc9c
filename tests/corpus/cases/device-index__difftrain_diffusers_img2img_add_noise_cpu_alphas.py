"""img2img pipeline: `scheduler.add_noise` indexes the CPU `alphas_cumprod` with timesteps made on the device.

Source: https://github.com/huggingface/diffusers/issues/239
`StableDiffusionImg2ImgPipeline(...)` on a GPU/MPS device failed with "indices should be either on cpu
or on the same device as the indexed tensor (cpu)": the pipeline builds
`timesteps = torch.tensor([timesteps] * batch_size, device=self.device)` and calls
`self.scheduler.add_noise(init_latents, noise, timesteps)`, and the scheduler indexes its
`alphas_cumprod` (created on the CPU in `__init__`, never moved by `pipe.to(device)`) with them. The
schedulers were made device-agnostic: the table is brought to the samples' device before the lookup.
Stand-in: the scheduler's `add_noise` and the pipeline's noising step; lookup written `index_select`.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class PNDMScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        self.betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        sqrt_alpha_prod = self.alphas_cumprod.index_select(0, timesteps) ** 0.5
        sqrt_one_minus_alpha_prod = (1 - self.alphas_cumprod.index_select(0, timesteps)) ** 0.5
        sqrt_alpha_prod = sqrt_alpha_prod[:, None, None, None]
        sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod[:, None, None, None]
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise

class StableDiffusionImg2ImgPipeline:
    def __init__(self, vae_encoder, scheduler):
        self.vae_encoder, self.scheduler = vae_encoder, scheduler
        self.device = torch.device("cpu")

    def to(self, device):
        self.vae_encoder.to(device)          # only nn.Module components move
        self.device = torch.device(device)
        return self

    @torch.no_grad()
    def prepare_latents(self, init_image, strength=0.75, num_inference_steps=75, batch_size=1):
        init_latents = self.vae_encoder(init_image.to(self.device)) * 0.18215
        offset = 1
        init_timestep = int(num_inference_steps * strength) + offset
        timesteps = int(1000 * init_timestep / num_inference_steps) - 1
        timesteps = torch.tensor([timesteps] * batch_size, dtype=torch.long, device=self.device)
        noise = torch.randn(init_latents.shape, device=self.device)
        return self.scheduler.add_noise(init_latents, noise, timesteps)

device = torch.device("cuda:0")
pipei2i = StableDiffusionImg2ImgPipeline(nn.Conv2d(3, 4, 8, stride=8), PNDMScheduler()).to(device)
init_image = torch.rand(1, 3, 64, 64) * 2 - 1
'''
CELL = '''
init_latents = pipei2i.prepare_latents(init_image, strength=0.75, num_inference_steps=75)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["pipei2i.scheduler.alphas_cumprod"]
FIX = "namespace"
REFERENCE_FIX = '''
pipei2i.scheduler.alphas_cumprod = pipei2i.scheduler.alphas_cumprod.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
