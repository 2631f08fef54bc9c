"""diffusers DDPM sampling: the initial noise is drawn on the CPU on purpose and moved to the device before the UNet.

Source: https://github.com/huggingface/diffusers/pull/157
A PR proposed creating the random matrices directly on the device; Patrick von Platen declined:
"The reason we use `.to(...)` here is so that the random matrix is always created on CPU and therefore
will give the same result no matter the hardware and PyTorch version for a given seed" (the same
pattern later serves mps, whose generator gives different draws). Look-alike: a CPU generator and
CPU noise next to a model on the accelerator, moved before use. Stand-in: DDPMPipeline's loop with a
one-conv "UNet" and the DDPM update; cuda:0 stands in for the accelerator.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class UNet(nn.Module):
    def __init__(self, channels=3):
        super().__init__()
        self.conv_in = nn.Conv2d(channels, 16, 3, padding=1)
        self.time_proj = nn.Linear(1, 16)
        self.conv_out = nn.Conv2d(16, channels, 3, padding=1)

    def forward(self, sample, timestep):
        t = self.time_proj(timestep.float().view(-1, 1))[:, :, None, None]
        return self.conv_out(torch.relu(self.conv_in(sample) + t))

torch_device = torch.device("cuda:0")        # "mps" on a Mac
unet = UNet().to(torch_device)
betas = [1e-4 + i * (0.02 - 1e-4) / 9 for i in range(10)]      # scheduler state as python floats
alphas = [1.0 - b for b in betas]
alphas_cumprod = [alphas[0]]
for a in alphas[1:]:
    alphas_cumprod.append(alphas_cumprod[-1] * a)
'''
CELL = '''
image = torch.randn((1, 3, 32, 32))          # drawn on the CPU for a hardware-independent seed
image = image.to(torch_device)
for t in reversed(range(3)):
    model_output = unet(image, torch.full((1,), t, device=torch_device))
    alpha, alpha_bar = alphas[t], alphas_cumprod[t]
    image = (image - (1 - alpha) / (1 - alpha_bar) ** 0.5 * model_output) / alpha ** 0.5
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
