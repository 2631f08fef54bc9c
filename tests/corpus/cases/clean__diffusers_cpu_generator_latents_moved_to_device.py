"""Look-alike: latents drawn on the CPU from a seeded CPU generator, then moved to the UNet's GPU.

Source: https://github.com/huggingface/diffusers/pull/1902
"[Deterministic torch randn] Allow tensors to be generated on CPU": for reproducible images across
machines the noise is sampled on the CPU with a CPU `torch.Generator` and only then moved to the
model's device ("we only allow cpu->cuda generation for reproducibility reasons"); the recommended
pattern in diffusers issue 6501. A CPU generator next to a CUDA model is deliberate; nothing to
report. Stand-in: a denoiser reduced to Linear layers over the latent channels.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyUNet(nn.Module):
    def __init__(self, in_channels=4):
        super().__init__()
        self.in_channels = in_channels
        self.net = nn.Sequential(nn.Linear(in_channels, 32), nn.SiLU(), nn.Linear(32, in_channels))

    def forward(self, latents, t):
        h = latents.permute(0, 2, 3, 1)
        return self.net(h).permute(0, 3, 1, 2) * t

torch_device = torch.device("cuda:0")
unet = TinyUNet().to(torch_device)
generator = torch.Generator().manual_seed(0)          # CPU generator, for reproducibility
batch_size, height, width = 1, 64, 64
'''
CELL = '''
latents = torch.randn((batch_size, unet.in_channels, height // 8, width // 8), generator=generator)
latents = latents.to(torch_device)
with torch.no_grad():
    noise_pred = unet(latents, 0.5)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
