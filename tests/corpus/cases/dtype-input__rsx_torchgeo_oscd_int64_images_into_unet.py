"""TorchGeo OSCD change detection: the dataset returns int64 images, the segmentation UNet's conv is float.

Source: https://github.com/torchgeo/torchgeo/issues/1652
"Using the OSCD datamodule with a segmentation task results in the error: RuntimeError: Input type
(torch.cuda.LongTensor) and weight type (torch.cuda.FloatTensor) should be the same ... I note that
the data is type int64: datamodule.train_dataset[0]['image'].dtype -> torch.int64". `OSCD._load_image`
stacks the Sentinel-2 band PNGs with `.astype(np.int_)` and returns `torch.from_numpy(array)`. The
reporter cast the image in a custom task; the fix merged for the issue (#1656, "Format to float")
returns `torch.from_numpy(array).float()` from `_load_image`.
Stand-ins: OSCD (random 8-bit bands instead of PNG files, two dates concatenated on channels),
OSCDDataModule without its GPU augmentations, SemanticSegmentationTask with a tiny UNet-like
model; one training step stands in for `trainer.fit`. Run on the CPU (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset


class OSCD(Dataset):
    rgb_bands = ("B04", "B03", "B02")

    def __init__(self, root="data", split="train", bands="rgb", n=4, size=64):
        self.split = split
        self.bands = self.rgb_bands if bands == "rgb" else tuple(f"B{i:02d}" for i in range(1, 14))
        rng = np.random.default_rng(0)
        self.files = [
            {
                "images1": [rng.integers(0, 255, (size, size), dtype=np.uint8) for _ in self.bands],
                "images2": [rng.integers(0, 255, (size, size), dtype=np.uint8) for _ in self.bands],
                "mask": rng.integers(0, 2, (size, size), dtype=np.uint8),
            }
            for _ in range(n)
        ]

    def __getitem__(self, index):
        files = self.files[index]
        image1 = self._load_image(files["images1"])
        image2 = self._load_image(files["images2"])
        mask = self._load_target(files["mask"])
        image = torch.cat([image1, image2])
        return {"image": image, "mask": mask}

    def __len__(self):
        return len(self.files)

    def _load_image(self, paths):
        images = []
        for path in paths:
            images.append(np.array(path))                    # Image.open(path)
        array = np.stack(images, axis=0).astype(np.int_)
        tensor = torch.from_numpy(array)
        return tensor

    def _load_target(self, path):
        array = np.array(path).astype(np.int_)
        return torch.from_numpy(array).long()


class OSCDDataModule:
    def __init__(self, batch_size=2, num_workers=0, bands="rgb", **kwargs):
        self.batch_size = batch_size
        self.num_workers = num_workers
        self.bands = bands

    def setup(self, stage):
        self.train_dataset = OSCD(split="train", bands=self.bands)

    def train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.batch_size, shuffle=False, num_workers=self.num_workers)


class Unet(nn.Module):                               # segmentation_models_pytorch.Unet stand-in
    def __init__(self, in_channels, classes):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(in_channels, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.decoder = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, classes, 3, padding=1))

    def forward(self, x):
        return self.decoder(self.encoder(x))


class SemanticSegmentationTask(nn.Module):           # a LightningModule in torchgeo
    def __init__(self, model="unet", backbone="resnet18", weights=None, in_channels=3, num_classes=2,
                 loss="ce", ignore_index=None):
        super().__init__()
        self.model = Unet(in_channels=in_channels, classes=num_classes)
        self.criterion = nn.CrossEntropyLoss()

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx):
        x = batch["image"]
        y = batch["mask"]
        y_hat = self(x)
        loss = self.criterion(y_hat, y)
        return loss


datamodule = OSCDDataModule(num_workers=0, download=True, bands="rgb")
datamodule.setup("fit")
task = SemanticSegmentationTask(model="unet", backbone="resnet18", weights=True, in_channels=6,
                                num_classes=2, loss="ce", ignore_index=None)
'''
CELL = '''
batch = next(iter(datamodule.train_dataloader()))   # trainer.fit(model=task, datamodule=datamodule)
loss = task.training_step(batch, 0)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["datamodule"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        tensor = torch.from_numpy(array)\n        return tensor",
                  "        tensor = torch.from_numpy(array).float()\n        return tensor")
CLEAN = False
