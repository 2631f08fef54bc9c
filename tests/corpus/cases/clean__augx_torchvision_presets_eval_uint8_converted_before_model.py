"""Look-alike: uint8 images through torchvision's classification eval preset, then into a float model.

Source: https://github.com/pytorch/vision/blob/main/references/classification/presets.py
`ClassificationPresetEval` turns the image into a uint8 tensor (`PILToTensor`) -- the dtype that makes a
float conv raise "Input type (unsigned char) and bias type (float)" -- but the very next steps are
`ConvertImageDtype(torch.float)` (which also rescales to [0, 1]) and `Normalize(mean, std)`, so the model
receives float32. The uint8 tensor in the namespace is the loader's output, on purpose. Nothing to report.
Stand-in: the preset reduced to the tensor steps (the PIL resize/crop replaced by a uint8 tensor already at
crop size), torchvision's `convert_image_dtype` uint8 -> float rule, and a tiny classifier.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def convert_image_dtype(image, dtype=torch.float):
    if image.dtype == dtype:
        return image
    if image.is_floating_point():
        return image.to(dtype)
    max_val = float(torch.iinfo(image.dtype).max)
    return image.to(dtype).div_(max_val)

class ConvertImageDtype(nn.Module):
    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, image):
        return convert_image_dtype(image, self.dtype)

class Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean, self.std = mean, std

    def forward(self, t):
        mean = torch.as_tensor(self.mean, dtype=t.dtype, device=t.device).view(-1, 1, 1)
        std = torch.as_tensor(self.std, dtype=t.dtype, device=t.device).view(-1, 1, 1)
        return (t - mean) / std

class ClassificationPresetEval:
    def __init__(self, *, crop_size, resize_size=256, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
        self.transforms = nn.Sequential(ConvertImageDtype(torch.float), Normalize(mean=mean, std=std))

    def __call__(self, img):
        return self.transforms(img)

preprocessing = ClassificationPresetEval(crop_size=64)
img = torch.randint(0, 256, (3, 64, 64), dtype=torch.uint8)      # PILToTensor output
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)).eval()
'''
CELL = '''
with torch.no_grad():
    logits = model(preprocessing(img).unsqueeze(0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
