"""Look-alike: torchvision's segmentation reference transforms turn a uint8 mask into an int64 target while the image becomes float.

Source: https://github.com/pytorch/vision/blob/main/references/segmentation/transforms.py
The joint (image, target) transforms convert the image with `pil_to_tensor` + `convert_image_dtype(float)`
+ `normalize`, and the mask with `torch.as_tensor(target, dtype=torch.int64)` -- so image and target leave
the pipeline in different dtypes, with a uint8 mask (the dataset's label PNG) still in the namespace. That
is what `cross_entropy(..., ignore_index=255)` wants: float logits, int64 class indices. Nothing to report.
Stand-in: the `Compose`/`PILToTensor`/`ConvertImageDtype`/`Normalize` joint transforms on tensors (uint8
tensors standing for the PIL image and mask), a tiny segmentation head, the reference's criterion.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Compose(object):
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, image, target):
        for t in self.transforms:
            image, target = t(image, target)
        return image, target

class PILToTensor:
    def __call__(self, image, target):
        image = image.clone()                                  # F.pil_to_tensor: uint8 (C, H, W)
        target = torch.as_tensor(target, dtype=torch.int64)
        return image, target

class ConvertImageDtype:
    def __init__(self, dtype):
        self.dtype = dtype

    def __call__(self, image, target):
        image = image.to(self.dtype) / 255.0                   # F.convert_image_dtype(uint8 -> float)
        target = torch.as_tensor(target, dtype=torch.int64)
        return image, target

class Normalize(object):
    def __init__(self, mean, std):
        self.mean = mean
        self.std = std

    def __call__(self, image, target):
        mean = torch.as_tensor(self.mean, dtype=image.dtype).view(-1, 1, 1)
        std = torch.as_tensor(self.std, dtype=image.dtype).view(-1, 1, 1)
        return (image - mean) / std, target

def criterion(inputs, target):
    return F.cross_entropy(inputs, target, ignore_index=255)

transforms = Compose([PILToTensor(), ConvertImageDtype(torch.float),
                      Normalize(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225))])
pil_image = torch.randint(0, 256, (3, 64, 64), dtype=torch.uint8)
pil_mask = torch.randint(0, 21, (64, 64), dtype=torch.uint8)
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 21, 1))
'''
CELL = '''
image, target = transforms(pil_image, pil_mask)
output = model(image.unsqueeze(0))
loss = criterion(output, target.unsqueeze(0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
