"""LightGlue's SuperPoint: `sample_descriptors` divides by a CPU `torch.tensor([...])` that is sent `.to(keypoints)`.

Source: https://github.com/cvg/LightGlue/blob/main/lightglue/superpoint.py
Look-alike: the keypoint normaliser is built with `torch.tensor([(w*s - s/2 - 0.5), (h*s - s/2 - 0.5)])`
(no device, default dtype) but immediately `.to(keypoints)`, so it takes the keypoints' device and dtype
before the in-place division; `grid_sample` then reads the descriptor map on the same accelerator.
Stand-ins: the SuperPoint backbone is a conv producing the coarse descriptor map; keypoints are random
pixel positions. Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def sample_descriptors(keypoints, descriptors, s: int = 8):
    """Interpolate descriptors at keypoint locations"""
    b, c, h, w = descriptors.shape
    keypoints = keypoints - s / 2 + 0.5
    keypoints /= torch.tensor(
        [(w * s - s / 2 - 0.5), (h * s - s / 2 - 0.5)],
    ).to(
        keypoints
    )[None]
    keypoints = keypoints * 2 - 1  # normalize to (-1, 1)
    args = {"align_corners": True} if torch.__version__ >= "1.3" else {}
    descriptors = torch.nn.functional.grid_sample(
        descriptors, keypoints.view(b, 1, -1, 2), mode="bilinear", **args
    )
    descriptors = torch.nn.functional.normalize(
        descriptors.reshape(b, c, -1), p=2, dim=1
    )
    return descriptors


device = torch.device("meta")        # cuda in the LightGlue demo
convDb = nn.Conv2d(64, 256, kernel_size=1).to(device)
x = torch.randn(1, 64, 30, 40, device=device)          # shared encoder output at stride 8
keypoints = torch.rand(1, 512, 2, device=device) * torch.tensor([319.0, 239.0], device=device)
'''
CELL = '''
descriptors = torch.nn.functional.normalize(convDb(x), p=2, dim=1)
desc = sample_descriptors(keypoints, descriptors, 8)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
