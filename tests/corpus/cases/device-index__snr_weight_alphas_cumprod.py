"""Min-SNR weighting indexes the scheduler's alphas_cumprod (moved to the GPU) with CPU timesteps.

Source: https://github.com/kohya-ss/sd-scripts/issues/2102
`torch.index_select(noise_scheduler.alphas_cumprod, 0, timesteps.cpu())` raised "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!": the code
assumes the scheduler's table stays on the CPU, but it had been moved to cuda. The scheduler is
not an nn.Module: Module.to() never sees its tensors. Stand-in: a plain scheduler object.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch

class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000):
        betas = torch.linspace(0.00085, 0.012, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

def apply_snr_weight(loss, timesteps, noise_scheduler, gamma=5.0):
    alphas_cumprod = torch.index_select(noise_scheduler.alphas_cumprod, 0, timesteps.cpu())
    snr = alphas_cumprod / (1.0 - alphas_cumprod)
    snr_weight = torch.clamp(snr, max=gamma) / snr
    return loss * snr_weight.to(loss.device)

noise_scheduler = DDPMScheduler()
noise_scheduler.alphas_cumprod = noise_scheduler.alphas_cumprod.to("cuda:0")
timesteps = torch.randint(0, 1000, (4,)).to("cuda:0")
loss = torch.rand(4, device="cuda:0")
'''
CELL = '''
loss = apply_snr_weight(loss, timesteps, noise_scheduler)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["noise_scheduler.alphas_cumprod"]
FIX = "namespace"
REFERENCE_FIX = '''
noise_scheduler.alphas_cumprod = noise_scheduler.alphas_cumprod.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
