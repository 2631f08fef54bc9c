"""Look-alike: mmcv-style imnormalize_ with float64 mean/std arrays applied in place to a float32 image.

Source: https://github.com/open-mmlab/mmcv/issues/1919
Asked why `imnormalize_` makes `mean` and `stdinv` `np.float64`, the maintainer explained that
`cv2.subtract(img, mean, img)` / `cv2.multiply(img, stdinv, img)` need float64 scalars, and the
user confirmed the final `img` is float32: the in-place ops write into the float32 image. The
float64 arrays in the namespace never reach the model; the tensor built from `img` is float32.
Stand-in: numpy in-place `subtract`/`multiply` with `out=img` in place of the cv2 calls.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def imnormalize_(img, mean, std, to_rgb=True):
    assert img.dtype != np.uint8
    mean = np.float64(mean.reshape(1, -1))
    stdinv = 1 / np.float64(std.reshape(1, -1))
    if to_rgb:
        img[...] = img[..., ::-1]
    np.subtract(img, mean, out=img, casting='same_kind')    # cv2.subtract(img, mean, img)
    np.multiply(img, stdinv, out=img, casting='same_kind')  # cv2.multiply(img, stdinv, img)
    return img

mean = np.array([123.675, 116.28, 103.53])
std = np.array([58.395, 57.12, 57.375])
img = np.random.randint(0, 256, size=(32, 32, 3)).astype(np.float32)   # mmcv.imread(...).astype(np.float32)
backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
'''
CELL = '''
img = imnormalize_(img, mean, std)
print(img.dtype)
x = torch.from_numpy(img.transpose(2, 0, 1).copy()).unsqueeze(0)
feats = backbone(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
