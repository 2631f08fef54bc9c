"""TorchGeo SemanticSegmentationTask with loss="jaccard" on the DrivenData cloud-cover chips: the custom dataset's masks are int32, and smp's JaccardLoss one-hot encodes them.

Source: https://github.com/torchgeo/torchgeo/issues/303
A user training on the "On Cloud N" Sentinel-2 chips with a custom dataset (cloud.py) and
`SemanticSegmentationTask(segmentation_model="unet", loss="jaccard", num_classes=2, ...)` hit a
RuntimeError in the loss. A maintainer found the fix: add `sample["mask"] = sample["mask"].long()`
(and `.float()` for the image) to `custom_transform`, "the jaccard loss from
segmentation_models_pytorch needs the masks to be torch.long instead of torch.int32" - its
multiclass branch calls `F.one_hot` on the mask. Stand-ins: the chip dataset (random arrays for the
GeoTIFFs), smp's JaccardLoss (multiclass branch), the task's training step with a two-conv model.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

class JaccardLoss(nn.Module):                      # segmentation_models_pytorch.losses.JaccardLoss
    def __init__(self, mode="multiclass", classes=None, from_logits=True, smooth=0.0, eps=1e-7):
        super().__init__()
        self.mode, self.from_logits, self.smooth, self.eps = mode, from_logits, smooth, eps

    def forward(self, y_pred, y_true):
        if self.from_logits:
            y_pred = y_pred.log_softmax(dim=1).exp()
        bs, num_classes = y_true.size(0), y_pred.size(1)
        dims = (0, 2)
        y_true = y_true.view(bs, -1)
        y_pred = y_pred.view(bs, num_classes, -1)
        y_true = F.one_hot(y_true, num_classes)    # N,H*W -> N,H*W, C
        y_true = y_true.permute(0, 2, 1)           # N, C, H*W
        intersection = torch.sum(y_pred * y_true, dim=dims)
        cardinality = torch.sum(y_pred + y_true, dim=dims)
        union = cardinality - intersection
        scores = (intersection + self.smooth) / (union + self.smooth).clamp_min(self.eps)
        return (1.0 - scores).mean()

class CloudDataset(Dataset):                       # cloud.py
    def __init__(self, chip_ids, bands=("B02", "B03", "B04", "B08"), transforms=None):
        self.chip_ids, self.bands, self.transforms = chip_ids, bands, transforms
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return len(self.chip_ids)

    def __getitem__(self, idx):
        band_arrs = [self.rng.integers(0, 10000, (64, 64)).astype(np.int32) for _ in self.bands]  # rasterio reads
        label = self.rng.integers(0, 2, (64, 64)).astype(np.int32)                               # label tif
        sample = {"image": torch.from_numpy(np.stack(band_arrs)), "mask": torch.from_numpy(label)}
        if self.transforms is not None:
            sample = self.transforms(sample)
        return sample

def custom_transform(sample):
    sample["image"] = sample["image"].float() / 10000.0
    return sample

class SemanticSegmentationTask(nn.Module):
    def __init__(self, in_channels=4, num_classes=2, loss="jaccard"):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(in_channels, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))
        self.loss = JaccardLoss(mode="multiclass", classes=num_classes) if loss == "jaccard" else nn.CrossEntropyLoss()

    def training_step(self, batch, batch_idx):
        x, y = batch["image"], batch["mask"]
        y_hat = self.model(x)
        return self.loss(y_hat, y)

train_dataset = CloudDataset(chip_ids=["adwp", "adwu", "adwz", "adxp"], transforms=custom_transform)
dl = DataLoader(train_dataset, batch_size=2, shuffle=True)
model = SemanticSegmentationTask(in_channels=4, num_classes=2, loss="jaccard")
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
'''
CELL = '''
for batch_idx, batch in enumerate(dl):
    optimizer.zero_grad()
    loss = model.training_step(batch, batch_idx)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = "one_hot is only applicable to index tensor"
CULPRITS = ["train_dataset"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('    sample["image"] = sample["image"].float() / 10000.0\n',
                  '    sample["image"] = sample["image"].float() / 10000.0\n    sample["mask"] = sample["mask"].long()\n')
CLEAN = False
