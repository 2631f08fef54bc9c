"""py-feat on a non-CPU device: `mask_image` turns the convex-hull mask into a CPU tensor and multiplies the aligned face on the GPU.

Source: https://github.com/cosanlab/py-feat/pull/258
With `Detector(device='mps')` (or any non-CPU device) detection crashed partway through; one of the three
failures the maintainer fixed was "Expected all tensors to be on the same device, but found at least two
devices, mps:0 and cpu!" in `feat/utils/image_operations.py::mask_image`, called on the aligned face by
`extract_face_from_landmarks` (HOG features for the AU/emotion models). `mask_image` returns
`torch.sgn(torch.tensor(mask).to(torch.float32)).unsqueeze(0).unsqueeze(0) * img`: the numpy mask becomes
a CPU tensor while `img` is on the detector's device. The merged fix moves the mask to `img.device`.
Stand-ins: the aligned 112x112 face already on the device (MPS simulated as cuda:0), the convex-hull
mask `grid_points_in_poly` returns as a numpy bool array.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

def mask_image(img, mask):
    """Apply numpy mask of (h, w) to img tensor (1, 3, h, w) (feat/utils/image_operations.py)"""
    return torch.sgn(torch.tensor(mask).to(torch.float32)).unsqueeze(0).unsqueeze(0) * img

device = torch.device("cuda:0")                                   # Detector(device='mps')
aligned_img = torch.rand(1, 3, 112, 112, device=device) * 255     # align_face(...) output
yy, xx = np.mgrid[0:112, 0:112]
mask = ((yy - 56) ** 2 / 50.0 ** 2 + (xx - 56) ** 2 / 40.0 ** 2) <= 1.0   # grid_points_in_poly(hull)
mask[0:30, 16:96] = True
'''
CELL = '''
masked_image = mask_image(aligned_img, mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mask_image"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    return torch.sgn(torch.tensor(mask).to(torch.float32)).unsqueeze(0).unsqueeze(0) * img",
                  "    mask_t = torch.tensor(mask).to(torch.float32).to(img.device)\n"
                  "    return torch.sgn(mask_t).unsqueeze(0).unsqueeze(0) * img")
CLEAN = False
