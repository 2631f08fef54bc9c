"""Look-alike: DDPMScheduler.step reads `alphas_cumprod` on the CPU while the UNet output is on the GPU.

Source: https://github.com/huggingface/diffusers/issues/3089
The reporter expected a device error ("forget to convert self.alphas_cumprod to the same device with
samples ... beta_prod_t is cpu variable and the model_output is cuda variable"), then found that
`noise_scheduler.step(noise, 500, noisy_latent)` on CUDA runs: indexing the CPU schedule with an
integer timestep gives 0-dim CPU tensors, which PyTorch combines with tensors on any device. No
finding expected. Stand-in: the DDPM step (epsilon prediction, no variance noise).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class DDPMScheduler:
    def __init__(self, beta_start=0.00085, beta_end=0.012, num_train_timesteps=1000):
        self.betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)
        self.one = torch.tensor(1.0)

    def step(self, model_output, timestep, sample):
        t = timestep
        prev_t = t - 1
        alpha_prod_t = self.alphas_cumprod[t]
        alpha_prod_t_prev = self.alphas_cumprod[prev_t] if prev_t >= 0 else self.one
        beta_prod_t = 1 - alpha_prod_t
        beta_prod_t_prev = 1 - alpha_prod_t_prev
        current_alpha_t = alpha_prod_t / alpha_prod_t_prev
        current_beta_t = 1 - current_alpha_t
        pred_original_sample = (sample - beta_prod_t ** 0.5 * model_output) / alpha_prod_t ** 0.5
        pred_original_sample_coeff = (alpha_prod_t_prev ** 0.5 * current_beta_t) / beta_prod_t
        current_sample_coeff = current_alpha_t ** 0.5 * beta_prod_t_prev / beta_prod_t
        return pred_original_sample_coeff * pred_original_sample + current_sample_coeff * sample

noise_scheduler = DDPMScheduler()
device = torch.device("cuda:0")
noisy_latent = torch.ones((1, 3, 64, 64)).to(device)
noise = torch.ones((1, 3, 64, 64)).to(device)
'''
CELL = '''
prev_sample = noise_scheduler.step(noise, 500, noisy_latent)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
