"""ControlNet on `cuda:1`: the DDIM sampler's `register_buffer` moves every schedule tensor to plain 'cuda'.

Source: https://github.com/lllyasviel/ControlNet-v1-1-nightly/issues/30
With two GPUs the user put the model on cuda:1 in the gradio script and sampling failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0".
The maintainer: multi-GPU needs code changes. The cause is ldm's `DDIMSampler.register_buffer`,
which moves each schedule tensor to `torch.device("cuda")`, i.e. cuda:0, whatever the model's device.
Stand-in: the sampler's buffer registration, schedule and one update step; plain 'cuda' is
written `torch.device("cuda", 0)` (the current device), which the CPU simulation can resolve.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
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
        if isinstance(attr, torch.Tensor):
            if attr.device != torch.device("cuda", 0):
                attr = attr.to(torch.device("cuda", 0))
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
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["ddim_sampler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            if attr.device != torch.device(\"cuda\", 0):\n                attr = attr.to(torch.device(\"cuda\", 0))",
    "            if attr.device != self.model.alphas_cumprod.device:\n                attr = attr.to(self.model.alphas_cumprod.device)",
)
CLEAN = False
