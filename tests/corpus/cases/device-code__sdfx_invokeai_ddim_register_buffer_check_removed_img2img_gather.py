"""InvokeAI (lstein fork) img2img: after a PR dropped the device move from `DDIMSampler.register_buffer`, the DDIM schedule stays on the CPU.

Source: https://github.com/invoke-ai/InvokeAI/issues/69
Right after a release, img2img on CUDA failed with "Expected all tensors to be on the same device,
but found at least two devices, cpu and cuda:0! (when checking argument for argument index in
method wrapper_gather)". The reporter traced it to the PR that removed the check in ddim/plms
`register_buffer` that moved every schedule tensor to the GPU: `make_ddim_sampling_parameters`
builds `ddim_alphas` & co. from `alphas_cumprod.cpu()`, so they now stayed on the CPU and
`stochastic_encode` gathered them with the cuda `t_enc` tensor. lstein backed the ddim change out
(restoring the move to the sampler's device).
Stand-ins: a LatentDiffusion with its schedule buffers, ldm's DDIMSampler (make_schedule,
stochastic_encode) and `extract_into_tensor`; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

def make_ddim_timesteps(ddim_discr_method, num_ddim_timesteps, num_ddpm_timesteps, verbose=True):
    c = num_ddpm_timesteps // num_ddim_timesteps
    ddim_timesteps = np.asarray(list(range(0, num_ddpm_timesteps, c)))
    return ddim_timesteps + 1

def make_ddim_sampling_parameters(alphacums, ddim_timesteps, eta, verbose=True):
    alphas = alphacums[ddim_timesteps]
    alphas_prev = torch.cat([alphacums[:1], alphacums[ddim_timesteps[:-1]]])
    sigmas = eta * torch.sqrt((1 - alphas_prev) / (1 - alphas) * (1 - alphas / alphas_prev))
    return sigmas, alphas, alphas_prev

def extract_into_tensor(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))

class LatentDiffusion(nn.Module):
    def __init__(self, timesteps=1000):
        super().__init__()
        self.num_timesteps = timesteps
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, timesteps, dtype=torch.float64) ** 2
        alphas_cumprod = torch.cumprod(1. - betas, dim=0)
        self.register_buffer("betas", betas.float())
        self.register_buffer("alphas_cumprod", alphas_cumprod.float())
        self.first_stage = nn.Conv2d(3, 4, kernel_size=8, stride=8)

    @property
    def device(self):
        return self.betas.device

class DDIMSampler(object):
    def __init__(self, model, schedule="linear", device="cuda:0", **kwargs):
        super().__init__()
        self.model = model
        self.ddpm_num_timesteps = model.num_timesteps
        self.schedule = schedule
        self.device = device

    def register_buffer(self, name, attr):
        setattr(self, name, attr)

    def make_schedule(self, ddim_num_steps, ddim_discretize="uniform", ddim_eta=0., verbose=True):
        self.ddim_timesteps = make_ddim_timesteps(ddim_discr_method=ddim_discretize, num_ddim_timesteps=ddim_num_steps,
                                                  num_ddpm_timesteps=self.ddpm_num_timesteps, verbose=verbose)
        alphas_cumprod = self.model.alphas_cumprod
        to_torch = lambda x: x.clone().detach().to(torch.float32).to(self.model.device)
        self.register_buffer('betas', to_torch(self.model.betas))
        self.register_buffer('alphas_cumprod', to_torch(alphas_cumprod))
        self.register_buffer('sqrt_alphas_cumprod', to_torch(torch.sqrt(alphas_cumprod)))
        self.register_buffer('sqrt_one_minus_alphas_cumprod', to_torch(torch.sqrt(1. - alphas_cumprod)))
        # ddim sampling parameters
        ddim_sigmas, ddim_alphas, ddim_alphas_prev = make_ddim_sampling_parameters(alphacums=alphas_cumprod.cpu(),
                                                                                   ddim_timesteps=self.ddim_timesteps,
                                                                                   eta=ddim_eta, verbose=verbose)
        self.register_buffer('ddim_sigmas', ddim_sigmas)
        self.register_buffer('ddim_alphas', ddim_alphas)
        self.register_buffer('ddim_alphas_prev', ddim_alphas_prev)
        self.register_buffer('ddim_sqrt_one_minus_alphas', torch.sqrt(1. - ddim_alphas))

    @torch.no_grad()
    def stochastic_encode(self, x0, t, use_original_steps=False, noise=None):
        # fast, but does not allow for exact reconstruction
        # t serves as an index to gather the correct alphas
        if use_original_steps:
            sqrt_alphas_cumprod = self.sqrt_alphas_cumprod
            sqrt_one_minus_alphas_cumprod = self.sqrt_one_minus_alphas_cumprod
        else:
            sqrt_alphas_cumprod = torch.sqrt(self.ddim_alphas)
            sqrt_one_minus_alphas_cumprod = self.ddim_sqrt_one_minus_alphas
        if noise is None:
            noise = torch.randn_like(x0)
        return (extract_into_tensor(sqrt_alphas_cumprod, t, x0.shape) * x0 +
                extract_into_tensor(sqrt_one_minus_alphas_cumprod, t, x0.shape) * noise)

device = torch.device("cuda:0")
model = LatentDiffusion().to(device)
sampler = DDIMSampler(model, device="cuda:0")
init_image = torch.rand(1, 3, 64, 64).to(device) * 2. - 1.
init_latent = model.first_stage(init_image) * 0.18215
steps, strength, ddim_eta, batch_size = 50, 0.75, 0.0, 1
'''
CELL = '''
sampler.make_schedule(ddim_num_steps=steps, ddim_eta=ddim_eta, verbose=False)
t_enc = int(strength * steps)
z_enc = sampler.stochastic_encode(init_latent, torch.tensor([t_enc] * batch_size).to(device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sampler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    def register_buffer(self, name, attr):
        setattr(self, name, attr)""",
                  """    def register_buffer(self, name, attr):
        if isinstance(attr, torch.Tensor):
            if attr.device != torch.device(self.device):
                attr = attr.to(torch.device(self.device))
        setattr(self, name, attr)""")
CLEAN = False
