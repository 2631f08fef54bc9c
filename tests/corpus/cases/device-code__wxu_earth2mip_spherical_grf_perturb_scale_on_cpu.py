"""earth2mip ensemble inference with `perturbation_strategy: "spherical_grf"`: the per-channel noise scale is a CPU tensor.

Source: https://github.com/NVIDIA/earth2mip/issues/175
The user switched the ensemble example to the spherical Gaussian random field perturbation and
`run_ensembles` failed in `perturb` at `return x + noise * scale[:, None, None]` ("Expected all
tensors to be on the same device ... cuda:0 and cpu!"): the GRF noise is sampled on the model's
device, but `scale` (noise amplitude times the per-channel std) was built on the CPU. The fix puts
`scale` on `device`. Stand-in: a reduced `perturb` and GRF sampler; the model is a tiny linear stepper.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class GaussianRandomFieldS2:
    def __init__(self, nlat, device):
        self.nlat = nlat
        self.device = device
    def __call__(self, n):
        return torch.randn(n, self.nlat, 2 * self.nlat, device=self.device)

class TimeLoop(nn.Module):
    def __init__(self, channels=4):
        super().__init__()
        self.proj = nn.Conv2d(channels, channels, 1)
        self.register_buffer("scale", torch.ones(channels))
    @property
    def device(self):
        return self.proj.weight.device
    def forward(self, x):
        return self.proj(x)

def perturb(x, rank, batch_id, device, noise_amplitude=0.05, channel_std=(1.0, 2.0, 0.5, 3.0)):
    shape = x.shape
    sampler = GaussianRandomFieldS2(nlat=shape[-2], device=device)
    noise = sampler(shape[1])
    scale = torch.tensor(channel_std) * noise_amplitude
    return x + noise * scale[:, None, None]

model = TimeLoop().to("cuda:0")
x = torch.randn(1, 4, 8, 16, device="cuda:0")
'''
CELL = '''
x_start = perturb(x, 0, 0, model.device)
out = model(x_start)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["scale"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("scale = torch.tensor(channel_std) * noise_amplitude",
                  "scale = torch.tensor(channel_std, device=device) * noise_amplitude")
CLEAN = False
