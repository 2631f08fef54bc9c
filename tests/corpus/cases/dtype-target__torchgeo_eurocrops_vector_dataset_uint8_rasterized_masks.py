"""TorchGeo EuroCrops + Sentinel-2 segmentation: `VectorDataset.__getitem__` returns the rasterized masks as uint8, and the task's cross-entropy wants int64 targets.

Source: https://github.com/torchgeo/torchgeo/pull/1869
While adding the EuroCrops data module the author changed `sample = {"mask": masks, ...}` to
`masks.long()` in `VectorDataset.__getitem__`: "Otherwise I got error where masks byte tensor is used
in cross entropy loss which expects long tensor" - `rasterio.features.rasterize` returns uint8 (or
uint16/uint32) arrays, `array_to_tensor` keeps that dtype, while RasterDataset casts its masks to
long. Stand-ins: the vector dataset (rasterization by a random uint8 label array), the intersection
with Sentinel-2 by a sampler that pairs image and mask, SemanticSegmentationTask reduced to its
training step with a two-conv model.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def array_to_tensor(array):
    """torchgeo.datasets.utils.array_to_tensor: converts unsupported unsigned types only"""
    if array.dtype == np.uint16:
        array = array.astype(np.int32)
    elif array.dtype == np.uint32:
        array = array.astype(np.int64)
    return torch.tensor(array)

class EuroCrops:                                   # VectorDataset
    classes = ["background", "winter_wheat", "maize", "grassland"]

    def __init__(self, paths="data/eurocrops", res=10):
        self.rng = np.random.default_rng(0)

    def __getitem__(self, query):
        shapes_mask = self.rng.integers(0, len(self.classes), (64, 64))
        masks = shapes_mask.astype(np.uint8)       # rasterio.features.rasterize(shapes, out_shape, dtype=uint8)
        # Use array_to_tensor since rasterize may return uint16/uint32 arrays.
        masks = array_to_tensor(masks)
        sample = {"mask": masks, "crs": "EPSG:32632", "bbox": query}
        return sample

class Sentinel2:                                   # RasterDataset, is_image=True
    def __getitem__(self, query):
        return {"image": torch.rand(13, 64, 64), "crs": "EPSG:32632", "bbox": query}

def stack_samples(samples):
    return {k: torch.stack([s[k] for s in samples]) if torch.is_tensor(samples[0][k]) else [s[k] for s in samples]
            for k in samples[0]}

class SemanticSegmentationTask(nn.Module):
    def __init__(self, in_channels, num_classes):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(in_channels, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))
        self.criterion = nn.CrossEntropyLoss(ignore_index=0)

    def training_step(self, batch, batch_idx):
        x = batch["image"]
        y = batch["mask"]
        y_hat = self.model(x)
        loss = self.criterion(y_hat, y)
        return loss

sentinel2 = Sentinel2()
eurocrops = EuroCrops(paths="data/eurocrops", res=10)
task = SemanticSegmentationTask(in_channels=13, num_classes=len(EuroCrops.classes))
optimizer = torch.optim.AdamW(task.parameters(), lr=1e-3)
queries = [(0, 640, 0, 640), (640, 1280, 0, 640)]  # RandomGeoSampler bounding boxes
'''
CELL = '''
batch = stack_samples([{**sentinel2[q], **eurocrops[q]} for q in queries])
optimizer.zero_grad()
loss = task.training_step(batch, 0)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long but found Byte", "expected target dtype to be Long")
CULPRITS = ["eurocrops"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('sample = {"mask": masks, "crs": "EPSG:32632", "bbox": query}',
                  'sample = {"mask": masks.long(), "crs": "EPSG:32632", "bbox": query}')
CLEAN = False
