"""Look-alike: a DDIM sampler on cuda:1 whose buffers follow the model's device.

Source: https://github.com/lllyasviel/ControlNet-v1-1-nightly/issues/30
The multi-GPU change the thread asks for: the sampler registers its schedule on the model's own
device instead of plain 'cuda'. Model, latents, timesteps and schedule are all on cuda:1; the
model's buffers were built on the CPU and moved with `.to()`. Nothing is misplaced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyLDM(nn.Module):
    def __init__(self, T=1000):
        super().__init__()
        self.unet = nn.Conv2d(4, 4, 3, padding=1)
        betas = torch.linspace(1e-4, 2e-2, T)
        self.register_buffer("alphas_cumprod", torch.cumprod(1 - betas, 0))

    def apply_model(self, x, t):
        return self.unet(x)

class DDIMSampler:
    def __init__(self, model):
        self.model = model

    def register_buffer(self, name, attr):
        device = self.model.alphas_cumprod.device
        if isinstance(attr, torch.Tensor) and attr.device != device:
            attr = attr.to(device)
        setattr(self, name, attr)

    def make_schedule(self):
        ac = self.model.alphas_cumprod
        self.register_buffer("sqrt_alphas_cumprod", torch.sqrt(ac))
        self.register_buffer("sqrt_one_minus_alphas_cumprod", torch.sqrt(1. - ac))

    def p_sample_ddim(self, x, t, index):
        e_t = self.model.apply_model(x, t)
        a_t = self.sqrt_alphas_cumprod.narrow(0, index, 1).view(1, 1, 1, 1)
        sigma_t = self.sqrt_one_minus_alphas_cumprod.narrow(0, index, 1).view(1, 1, 1, 1)
        return (x - sigma_t * e_t) / a_t

device = torch.device("cuda:1")
model = TinyLDM().to(device)
ddim_sampler = DDIMSampler(model)
ddim_sampler.make_schedule()
x_T = torch.randn(2, 4, 8, 8).to(device)
ts = torch.tensor([999, 999]).to(device)
'''
CELL = '''
with torch.no_grad():
    x_prev = ddim_sampler.p_sample_ddim(x_T, ts, index=999)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
