"""earth2studio `SphericalGaussian` perturbation given a CPU noise-amplitude tensor in a GPU ensemble workflow: moved in `__call__`, runs.

Source: https://github.com/NVIDIA/earth2studio/issues/99
The report built `noise_amp = torch.zeros(73, 1, 1); noise_amp[4] = 0.01` on the CPU and passed it
to `SphericalGaussian(noise_amp)` in an SFNO ensemble running on the GPU; the maintainers pointed out
that `__call__` already moves the amplitude to `x.device` (spherical.py L114), and the reporter
confirmed that this is the case. Look-alike: a CPU amplitude tensor held by an object beside a GPU
model and GPU state, moved at use. Stand-in: the perturbation (GRF noise drawn on `x.device`) and a
1x1-conv forecast model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from collections import OrderedDict

class SphericalGaussian:
    def __init__(self, noise_amplitude, alpha=2.0, tau=3.0):
        self.noise_amplitude = noise_amplitude if isinstance(noise_amplitude, torch.Tensor) \\
            else torch.tensor(noise_amplitude)
        self.alpha = alpha
        self.tau = tau
    def __call__(self, x, coords):
        noise = torch.randn(x.shape, device=x.device) / self.tau ** self.alpha
        return x + self.noise_amplitude.to(x.device) * noise, coords

class SFNO(nn.Module):
    def __init__(self, channels=73):
        super().__init__()
        self.step = nn.Conv2d(channels, channels, 1)
    def forward(self, x):
        return self.step(x)

device = torch.device("cuda:0")
model = SFNO().to(device)
noise_amp = torch.zeros(73, 1, 1)
noise_amp[4] = 0.01  # t2m
perturbation = SphericalGaussian(noise_amp)
x = torch.randn(2, 73, 8, 16, device=device)
coords = OrderedDict(ensemble=list(range(2)), variable=list(range(73)))
'''
CELL = '''
with torch.no_grad():
    x, coords = perturbation(x, coords)
    y = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
