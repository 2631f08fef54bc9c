"""Look-alike: torchvision transforms v2 run on a CUDA batch; Normalize's Python-list mean/std are built on the image's device.

Source: https://github.com/pytorch/vision/blob/main/torchvision/transforms/v2/functional/_misc.py
GPU augmentation after the loader: the uint8 batch is moved to the GPU, converted with
`ToDtype(torch.float32, scale=True)` and normalized with `Normalize(mean=[...], std=[...])`;
`normalize_image` creates `mean`/`std` with `torch.as_tensor(mean, dtype=dtype, device=image.device)`,
so Python lists of statistics work for a CUDA batch. Stand-in: the v2 kernels (to_dtype,
normalize_image, horizontal flip) in a Compose, and a linear classifier on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def to_dtype_image(image, dtype=torch.float32, scale=True):
    out = image.to(dtype)
    return out.div(255) if scale and not image.is_floating_point() else out

def normalize_image(image, mean, std, inplace=False):
    dtype = image.dtype
    device = image.device
    mean = torch.as_tensor(mean, dtype=dtype, device=device)
    std = torch.as_tensor(std, dtype=dtype, device=device)
    if mean.ndim == 1:
        mean = mean.view(-1, 1, 1)
    if std.ndim == 1:
        std = std.view(-1, 1, 1)
    return image.sub(mean).div(std)

class ToDtype:
    def __init__(self, dtype, scale=False):
        self.dtype, self.scale = dtype, scale
    def __call__(self, x):
        return to_dtype_image(x, self.dtype, self.scale)

class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = list(mean), list(std)
    def __call__(self, x):
        return normalize_image(x, self.mean, self.std)

class RandomHorizontalFlip:
    def __call__(self, x):
        return x.flip(-1)

class Compose:
    def __init__(self, transforms):
        self.transforms = transforms
    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x

device = torch.device("cuda:0")
gpu_transforms = Compose([RandomHorizontalFlip(), ToDtype(torch.float32, scale=True),
                          Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])])
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 10)).to(device)
images = torch.randint(0, 256, (4, 3, 16, 16), dtype=torch.uint8)
labels = torch.randint(0, 10, (4,))
'''
CELL = '''
images_gpu = gpu_transforms(images.to(device, non_blocking=True))
with torch.no_grad():
    logits = model(images_gpu)
    loss = nn.functional.cross_entropy(logits, labels.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
