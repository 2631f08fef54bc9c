"""TorchGeo `RandomGrayscale` after the device fix: CPU band weights in kornia's `flags`, moved at use.

Source: https://github.com/torchgeo/torchgeo/blob/main/torchgeo/transforms/color.py
The multispectral `RandomGrayscale` keeps its rescaled band weights in `self.flags = {"weights":
weights}` (a plain dict, so `Module.to()` leaves them on the CPU) and its `apply_transform` reads
`flags["weights"][..., :, None, None].to(input.device)` before multiplying the image. SSL trainers
(MoCo/SimCLR) run it on GPU batches. Look-alike: a CPU tensor held outside the module's buffers next
to a cuda batch, moved where it is used; it runs.
Stand-ins: kornia's `IntensityAugmentationBase2D` and `AugmentationSequential` (the grayscale is
applied to every sample, where kornia draws a random subset), a flip, an embedding backbone.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


class IntensityAugmentationBase2D(nn.Module):
    def __init__(self, p=0.5, same_on_batch=False, keepdim=False):
        super().__init__()
        self.p = p
        self.flags = {}

    def forward(self, input):
        params = {"batch_prob": torch.ones(input.shape[0], device=input.device)}
        return self.apply_transform(input, params, self.flags)


class RandomHorizontalFlip(IntensityAugmentationBase2D):
    def apply_transform(self, input, params, flags, transform=None):
        return torch.flip(input, dims=(-1,))


class RandomGrayscale(IntensityAugmentationBase2D):
    def __init__(self, weights, p=0.1, same_on_batch=False, keepdim=False):
        super().__init__(p=p, same_on_batch=same_on_batch, keepdim=keepdim)
        # Rescale to sum to 1
        weights /= weights.sum()
        self.flags = {"weights": weights}

    def apply_transform(self, input, params, flags, transform=None):
        weights = flags["weights"][..., :, None, None].to(input.device)
        out = input * weights
        out = out.sum(dim=-3)
        out = out.unsqueeze(-3).expand(input.shape)
        return out


device = torch.device("cuda:0")
augmentations = nn.Sequential(RandomHorizontalFlip(), RandomGrayscale(weights=torch.ones(13), p=0.2)).to(device)
backbone = nn.Sequential(nn.Conv2d(13, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()).to(device)
x = torch.rand(8, 13, 32, 32).to(device)                  # Sentinel-2 SSL4EO batch
'''
CELL = '''
with torch.no_grad():
    x1 = augmentations(x)
    h1 = backbone(x1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
