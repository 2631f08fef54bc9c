"""TorchGeo SimCLR/MoCo on a GPU: `RandomGrayscale` keeps its band weights in kornia's `flags` dict, on the CPU.

Source: https://github.com/torchgeo/torchgeo/pull/1357
TorchGeo's multispectral `RandomGrayscale(weights, p)` (a kornia `IntensityAugmentationBase2D`)
stores the rescaled band weights in `self.flags = {"weights": weights}`, a plain dict that
`Module.to()` never visits. `SimCLRTask` builds its augmentation pipeline with
`torch.ones(in_channels)` as weights and Lightning moves the task to the GPU, so
`apply_transform` multiplies the cuda image batch by the CPU weights. The PR ("fix randomgrayscale
device bug") moves the weights to the input's device inside `apply_transform`:
`flags["weights"][..., :, None, None].to(input.device)`.
Stand-ins: kornia's `IntensityAugmentationBase2D` / `AugmentationSequential` (the grayscale is
applied to every sample, where kornia draws a random subset with probability `p`), flips in place
of the crop/blur, a tiny backbone and projection head for timm/lightly, NT-Xent written out.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn


class IntensityAugmentationBase2D(nn.Module):          # kornia.augmentation stand-in
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


class RandomVerticalFlip(IntensityAugmentationBase2D):
    def apply_transform(self, input, params, flags, transform=None):
        return torch.flip(input, dims=(-2,))


class AugmentationSequential(nn.Sequential):
    def __init__(self, *args, data_keys=("input",)):
        super().__init__(*args)
        self.data_keys = data_keys


class RandomGrayscale(IntensityAugmentationBase2D):
    def __init__(self, weights, p=0.1, same_on_batch=False, keepdim=False):
        super().__init__(p=p, same_on_batch=same_on_batch, keepdim=keepdim)
        # Rescale to sum to 1
        weights /= weights.sum()
        self.flags = {"weights": weights}

    def apply_transform(self, input, params, flags, transform=None):
        weights = flags["weights"][..., :, None, None]
        out = input * weights
        out = out.sum(dim=-3)
        out = out.unsqueeze(-3).expand(input.shape)
        return out


def simclr_augmentations(size, weights):
    return AugmentationSequential(
        RandomHorizontalFlip(),
        RandomVerticalFlip(),
        RandomGrayscale(weights=weights, p=0.2),
        data_keys=["input"],
    )


class SimCLRTask(nn.Module):                          # a LightningModule in torchgeo
    def __init__(self, in_channels=13, size=32, hidden_dim=64, output_dim=32, temperature=0.07,
                 grayscale_weights=None):
        super().__init__()
        self.hparams = {"in_channels": in_channels, "temperature": temperature}
        grayscale_weights = grayscale_weights or torch.ones(in_channels)
        self.augmentations = simclr_augmentations(size, grayscale_weights)
        self.backbone = nn.Sequential(
            nn.Conv2d(in_channels, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()
        )
        self.projection_head = nn.Sequential(nn.Linear(16, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, output_dim))

    def forward(self, x):
        h = self.backbone(x)
        z = self.projection_head(h)
        return z, h

    def criterion(self, z1, z2):                      # lightly NTXentLoss
        z = F.normalize(torch.cat([z1, z2]), dim=1)
        n = z1.shape[0]
        logits = z @ z.t() / self.hparams["temperature"]
        logits = logits - 1e9 * torch.eye(2 * n, device=z.device)
        labels = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
        return F.cross_entropy(logits, labels)

    def training_step(self, batch, batch_idx):
        x = batch["image"]
        x1 = x
        x2 = x
        with torch.no_grad():
            x1 = self.augmentations(x1)
            x2 = self.augmentations(x2)
        z1, h1 = self(x1)
        z2, h2 = self(x2)
        return self.criterion(z1, z2)


device = torch.device("cuda:0")
task = SimCLRTask(in_channels=13, size=32).to(device)     # what the Lightning Trainer does
batch = {"image": torch.rand(8, 13, 32, 32).to(device)}    # a Sentinel-2 (13-band) batch on the GPU
'''
CELL = '''
with torch.no_grad():
    loss = task.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["task.augmentations"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('weights = flags["weights"][..., :, None, None]',
                  'weights = flags["weights"][..., :, None, None].to(input.device)')
CLEAN = False
