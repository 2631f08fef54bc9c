"""diffusion-ddpm training: the scheduler's `alphas_hat` stays on the CPU, the timesteps are on the GPU.

Source: https://github.com/mattroz/diffusion-ddpm/issues/5
`python -m src.train` on Colab failed with "indices should be either on cpu or on the same device as
the indexed tensor (cpu)" at `alpha_hat = self.alphas_hat[timesteps].to(images.device)`: the
DDPM scheduler builds `self.betas = torch.linspace(...)` (hence `alphas_hat`) on the CPU while
`timesteps` are made on `training_config.device`. Stand-in: the DDPMPipeline's forward-diffusion
step and a tiny UNet; the row lookup is written `index_select` (the simulator cannot index with
`[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class DDPMPipeline:
    def __init__(self, beta_start=1e-4, beta_end=1e-2, num_timesteps=1000):
        self.betas = torch.linspace(beta_start, beta_end, num_timesteps)
        self.alphas = 1 - self.betas
        self.alphas_hat = torch.cumprod(self.alphas, dim=0)
        self.num_timesteps = num_timesteps

    def forward_diffusion(self, images, timesteps):
        gaussian_noise = torch.randn(images.shape, device=images.device)
        alpha_hat = self.alphas_hat.index_select(0, timesteps).to(images.device)
        alpha_hat = alpha_hat.view(-1, 1, 1, 1)
        return torch.sqrt(alpha_hat) * images + torch.sqrt(1 - alpha_hat) * gaussian_noise, gaussian_noise

class TrainingConfig:
    device = torch.device("cuda:0")
    batch_size = 4

training_config = TrainingConfig()
diffusion_pipeline = DDPMPipeline()
model = nn.Conv2d(3, 3, 3, padding=1).to(training_config.device)
images = torch.randn(4, 3, 32, 32).to(training_config.device)
timesteps = torch.randint(0, diffusion_pipeline.num_timesteps, (images.shape[0],), device=training_config.device)
'''
CELL = '''
noisy_images, noise = diffusion_pipeline.forward_diffusion(images, timesteps)
noise_pred = model(noisy_images)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["diffusion_pipeline.alphas_hat"]
FIX = "namespace"
REFERENCE_FIX = '''
diffusion_pipeline.alphas_hat = diffusion_pipeline.alphas_hat.to(training_config.device)
'''
REFERENCE_EDIT = None
CLEAN = False
