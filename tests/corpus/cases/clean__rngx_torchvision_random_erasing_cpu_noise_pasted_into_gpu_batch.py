"""Look-alike: torchvision `RandomErasing(value="random")` applied to an image batch already on the accelerator.

Source: https://github.com/pytorch/vision/blob/main/torchvision/transforms/transforms.py
`RandomErasing.get_params` draws the box with CPU RNG (`torch.empty(1).uniform_(...).item()`,
`torch.randint(...).item()`) and, for `value="random"`, the patch itself with
`v = torch.empty([img_c, h, w], dtype=torch.float32).normal_()` on the CPU. `F.erase` then writes
it in place with `img[..., i:i+h, j:j+w] = v`; a copy across devices is allowed, so a GPU batch is
erased with CPU noise without error. `RandomErasing` / `erase` are torchvision's code, reduced
(no argument checks); the accelerator is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import numbers
import torch
from torch import nn


def erase(img, i, j, h, w, v, inplace=False):
    if not inplace:
        img = img.clone()
    img[..., i : i + h, j : j + w] = v
    return img


class RandomErasing(nn.Module):
    def __init__(self, p=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False):
        super().__init__()
        self.p = p
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    @staticmethod
    def get_params(img, scale, ratio, value=None):
        img_c, img_h, img_w = img.shape[-3], img.shape[-2], img.shape[-1]
        area = img_h * img_w

        log_ratio = torch.log(torch.tensor(ratio))
        for _ in range(10):
            erase_area = area * torch.empty(1).uniform_(scale[0], scale[1]).item()
            aspect_ratio = torch.exp(torch.empty(1).uniform_(log_ratio[0], log_ratio[1])).item()

            h = int(round(math.sqrt(erase_area * aspect_ratio)))
            w = int(round(math.sqrt(erase_area / aspect_ratio)))
            if not (h < img_h and w < img_w):
                continue

            if value is None:
                v = torch.empty([img_c, h, w], dtype=torch.float32).normal_()
            else:
                v = torch.tensor(value)[:, None, None]

            i = torch.randint(0, img_h - h + 1, size=(1,)).item()
            j = torch.randint(0, img_w - w + 1, size=(1,)).item()
            return i, j, h, w, v

        # Return original image
        return 0, 0, img_h, img_w, img

    def forward(self, img):
        if torch.rand(1) < self.p:
            # cast self.value to script acceptable type
            if isinstance(self.value, (int, float)):
                value = [float(self.value)]
            elif isinstance(self.value, str):
                value = None
            else:
                value = list(self.value)
            if value is not None and not (len(value) in (1, img.shape[-3])):
                raise ValueError("bad value")
            x, y, h, w, v = self.get_params(img, scale=self.scale, ratio=self.ratio, value=value)
            return erase(img, x, y, h, w, v, self.inplace)
        return img


torch.manual_seed(0)
device = torch.device("meta")   # cuda:0 on a GPU machine
eraser = RandomErasing(p=1.0, value="random")
images = torch.rand(16, 3, 64, 64).to(device)
'''
CELL = '''
erased = eraser(images)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
