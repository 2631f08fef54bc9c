"""Look-alike: threestudio's `SolidColorBackground` is left on the CPU while it is called with CUDA ray directions; its forward moves everything to `dirs`.

Source: https://github.com/threestudio-project/threestudio/blob/main/threestudio/models/background/solid_color_background.py
`configure` registers `env_color` as a buffer (or a Parameter when learned) and `forward` builds
`torch.ones(*dirs.shape[:-1], n_output_dims).to(dirs) * self.env_color.to(dirs)`, so the module works whatever
device its buffer is on. Here the background is built in a notebook without `.to(device)` and fed the GPU
renderer's ray directions: the CPU buffer is moved where it is used, nothing to report.
Stand-ins: `BaseBackground` reduced to a plain `nn.Module` taking the config as keyword arguments, the
background verbatim otherwise, and a NeRF-style composite of a CUDA render over the background.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import random
import torch
import torch.nn as nn

class SolidColorBackground(nn.Module):
    """stand-in of threestudio's solid-color-background (Config fields as keyword arguments)"""
    def __init__(self, n_output_dims=3, color=(1.0, 1.0, 1.0), learned=False, random_aug=False, random_aug_prob=0.5):
        super().__init__()
        self.n_output_dims, self.color, self.learned = n_output_dims, color, learned
        self.random_aug, self.random_aug_prob = random_aug, random_aug_prob
        self.configure()

    def configure(self):
        if self.learned:
            self.env_color = nn.Parameter(torch.as_tensor(self.color, dtype=torch.float32))
        else:
            self.register_buffer("env_color", torch.as_tensor(self.color, dtype=torch.float32))

    def forward(self, dirs):
        color = torch.ones(*dirs.shape[:-1], self.n_output_dims).to(
            dirs
        ) * self.env_color.to(dirs)
        if self.training and self.random_aug and random.random() < self.random_aug_prob:
            color = color * 0 + (
                torch.rand(dirs.shape[0], 1, 1, self.n_output_dims).to(dirs).expand(*dirs.shape[:-1], -1)
            )
        return color

device = "cuda:0"
background = SolidColorBackground(color=(1.0, 1.0, 1.0)).eval()     # not moved: CPU buffer
B, H, W = 1, 32, 32
rays_d = torch.nn.functional.normalize(torch.randn(B, H, W, 3, device=device), dim=-1)
comp_rgb_fg = torch.rand(B, H, W, 3, device=device)                  # renderer output
opacity = torch.rand(B, H, W, 1, device=device)
'''
CELL = '''
with torch.no_grad():
    comp_rgb_bg = background(dirs=rays_d)
    comp_rgb = comp_rgb_fg + comp_rgb_bg * (1.0 - opacity)
print(comp_rgb.shape, comp_rgb.device, background.env_color.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
