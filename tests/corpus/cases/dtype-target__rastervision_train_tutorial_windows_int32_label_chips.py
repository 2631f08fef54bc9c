"""Raster Vision training tutorial on Windows: label chips come out of the dataset as int32, `F.cross_entropy` in the learner's `train_step` wants int64.

Source: https://github.com/azavea/raster-vision/issues/1989
Running docs/usage/tutorials/train.ipynb on Windows (F:\\raster-vision, Python 3.10), the cell
`learner.train(epochs=3)` failed in `SemanticSegmentationLearner.train_step` with "RuntimeError:
expected scalar type Long but found Int". The semantic-segmentation transformer casts the label
chip with numpy's default integer, which is int32 on Windows (int64 on Linux), so the collated `y`
is int32. Stand-ins: the sliding-window GeoDataset (random scene arrays), the transformer, and
the Learner reduced to its train loop; the Windows integer is written as np.int32.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

WINDOWS_DEFAULT_INT = np.int32                   # np.int_ / dtype=int on Windows with numpy < 2

def semantic_segmentation_transformer(inp, transform=None):
    x, y = inp
    x = np.array(x)
    if y is not None:
        y = np.array(y)
    if transform is not None:
        out = transform(image=x, mask=y)
        x, y = out["image"], out.get("mask")
    x = torch.from_numpy(x).permute(2, 0, 1).float() / 255
    if y is not None:
        y = torch.from_numpy(y.astype(WINDOWS_DEFAULT_INT))
    return x, y

class SemanticSegmentationSlidingWindowGeoDataset(Dataset):
    def __init__(self, image, label, size=32, stride=32):
        self.image, self.label, self.size, self.stride = image, label, size, stride
        h, w = label.shape
        self.windows = [(r, c) for r in range(0, h - size + 1, stride) for c in range(0, w - size + 1, stride)]

    @classmethod
    def from_uris(cls, class_config, image_uri, label_raster_uri, size=32, stride=32):
        rng = np.random.default_rng(0)
        image = rng.integers(0, 255, (96, 96, 3), dtype=np.uint8)           # RasterioSource
        label = rng.integers(0, len(class_config["names"]), (96, 96), dtype=np.uint8)
        return cls(image, label, size, stride)

    def __len__(self):
        return len(self.windows)

    def __getitem__(self, i):
        r, c = self.windows[i]
        s = self.size
        return semantic_segmentation_transformer((self.image[r:r + s, c:c + s], self.label[r:r + s, c:c + s]))

class SemanticSegmentationLearner:
    def __init__(self, cfg, model, train_ds, valid_ds, output_dir=None):
        self.cfg, self.model = cfg, model
        self.train_dl = DataLoader(train_ds, batch_size=cfg["batch_sz"], shuffle=True)
        self.opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    def train_step(self, batch, batch_ind):
        x, y = batch
        out = self.model(x)
        return {"train_loss": F.cross_entropy(out, y)}

    def train_epoch(self, optimizer):
        self.model.train()
        for batch_ind, (x, y) in enumerate(self.train_dl):
            batch = (x, y)
            optimizer.zero_grad()
            output = self.train_step(batch, batch_ind)
            output["train_loss"].backward()
            optimizer.step()

    def train(self, epochs=None):
        for epoch in range(epochs or self.cfg["num_epochs"]):
            self.train_epoch(optimizer=self.opt)

class_config = {"names": ["background", "building"], "colors": ["lightgray", "darkred"]}
train_ds = SemanticSegmentationSlidingWindowGeoDataset.from_uris(
    class_config=class_config, image_uri="s3://spacenet-dataset/..._RGB.tif",
    label_raster_uri="..._labels.tif", size=32, stride=32)
val_ds = train_ds
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, len(class_config["names"]), 1))
learner = SemanticSegmentationLearner(
    cfg={"batch_sz": 4, "lr": 1e-4, "num_epochs": 3}, model=model,
    train_ds=train_ds, valid_ds=val_ds, output_dir="./train-demo/")
'''
CELL = '''
learner.train(epochs=3)
'''
EXPECT_ERROR = ("expected target dtype to be Long or Byte, but got Int", "expected scalar type Long but found Int")
CULPRITS = ["train_ds"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("y = torch.from_numpy(y.astype(WINDOWS_DEFAULT_INT))",
                  "y = torch.from_numpy(y.astype(np.int64))")
CLEAN = False
