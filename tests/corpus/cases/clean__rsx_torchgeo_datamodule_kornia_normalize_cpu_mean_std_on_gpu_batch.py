"""TorchGeo datamodules normalise GPU batches with kornia `Normalize` holding CPU mean/std tensors.

Source: https://github.com/torchgeo/torchgeo/blob/main/torchgeo/datamodules/geo.py
A `NonGeoDataModule` builds `self.aug = K.AugmentationSequential(K.Normalize(mean=self.mean,
std=self.std), data_keys=None, keepdim=True)` from CPU band statistics, and
`on_after_batch_transfer` applies it to the batch after Lightning has moved it to the GPU. kornia's
`normalize` converts the statistics with `torch.as_tensor(mean, device=data.device, dtype=data.dtype)`
before subtracting, so the CPU mean/std never meet the cuda image directly. Look-alike: CPU
per-band statistics applied to a GPU batch; it runs.
Stand-ins: kornia's `Normalize` and a dict-batch `AugmentationSequential`, a datamodule with the
EuroSAT 13-band statistics cut to 4 bands, a `trainer` flag object and a small classifier.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def normalize(data, mean, std):                      # kornia.enhance.normalize
    shape = data.shape
    mean = torch.as_tensor(mean, device=data.device, dtype=data.dtype)
    std = torch.as_tensor(std, device=data.device, dtype=data.dtype)
    mean = mean[..., None]
    std = std[..., None]
    out = (data.view(shape[0], shape[1], -1) - mean) / std
    return out.view(shape)


class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.flags = {"mean": mean, "std": std}

    def forward(self, input):
        return normalize(input, self.flags["mean"], self.flags["std"])


class AugmentationSequential(nn.Sequential):
    def __init__(self, *args, data_keys=None, keepdim=True):
        super().__init__(*args)

    def forward(self, batch):
        image = batch["image"]
        for aug in self:
            image = aug(image)
        return {**batch, "image": image}


class Trainer:
    training = True


class EuroSATDataModule:
    mean = torch.tensor([1354.40546513, 1118.24399958, 1042.92983953, 947.62620298])
    std = torch.tensor([245.71762908, 333.00778264, 395.09249139, 593.75055589])

    def __init__(self, batch_size=8):
        self.batch_size = batch_size
        self.trainer = Trainer()
        self.aug = AugmentationSequential(Normalize(mean=self.mean, std=self.std), data_keys=None, keepdim=True)

    def on_after_batch_transfer(self, batch, dataloader_idx):
        if self.trainer:
            batch = self.aug(batch)
        return batch


device = torch.device("cuda:0")
datamodule = EuroSATDataModule()
classifier = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10)).to(device)
batch = {"image": (torch.rand(8, 4, 64, 64) * 3000).to(device), "label": torch.randint(0, 10, (8,)).to(device)}
'''
CELL = '''
batch = datamodule.on_after_batch_transfer(batch, 0)
with torch.no_grad():
    logits = classifier(batch["image"])
    loss = nn.functional.cross_entropy(logits, batch["label"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
