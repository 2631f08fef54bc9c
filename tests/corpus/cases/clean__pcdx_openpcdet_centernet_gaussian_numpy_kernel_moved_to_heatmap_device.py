"""Look-alike: OpenPCDet's draw_gaussian_to_heatmap moves a float64 numpy kernel onto the heatmap's device.

Source: https://github.com/open-mmlab/OpenPCDet/blob/master/pcdet/models/model_utils/centernet_utils.py
`gaussian2D` builds the Gaussian with numpy (float64); `draw_gaussian_to_heatmap` reads the box
center as Python ints (`int(center[0])`), slices the heatmap window and converts the kernel with
`torch.from_numpy(...).to(heatmap.device).float()` before `torch.max(..., out=masked_heatmap)`.
A CPU center and a float64 numpy kernel next to a heatmap on the accelerator, on purpose; the cell
runs. Simulated with meta as the accelerator (slicing needs real shapes).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def gaussian2D(shape, sigma=1):
    m, n = [(ss - 1.) / 2. for ss in shape]
    y, x = np.ogrid[-m:m + 1, -n:n + 1]

    h = np.exp(-(x * x + y * y) / (2 * sigma * sigma))
    h[h < np.finfo(h.dtype).eps * h.max()] = 0
    return h

def draw_gaussian_to_heatmap(heatmap, center, radius, k=1, valid_mask=None):
    diameter = 2 * radius + 1
    gaussian = gaussian2D((diameter, diameter), sigma=diameter / 6)

    x, y = int(center[0]), int(center[1])

    height, width = heatmap.shape[0:2]

    left, right = min(x, radius), min(width - x, radius + 1)
    top, bottom = min(y, radius), min(height - y, radius + 1)

    masked_heatmap = heatmap[y - top:y + bottom, x - left:x + right]
    masked_gaussian = torch.from_numpy(
        gaussian[radius - top:radius + bottom, radius - left:radius + right]
    ).to(heatmap.device).float()

    if min(masked_gaussian.shape) > 0 and min(masked_heatmap.shape) > 0:
        if valid_mask is not None:
            cur_valid_mask = valid_mask[y - top:y + bottom, x - left:x + right]
            masked_gaussian = masked_gaussian * cur_valid_mask.float()

        torch.max(masked_heatmap, masked_gaussian * k, out=masked_heatmap)
    return heatmap

device = torch.device("meta")            # cuda:0 on the training box
num_classes, feature_map_size = 3, (176, 200)
heatmap = torch.zeros(num_classes, feature_map_size[1], feature_map_size[0], device=device)
# box centers on the BEV grid, computed on the CPU in assign_target_of_single_head
centers = torch.tensor([[40.7, 88.2], [120.3, 30.9], [15.1, 150.6]])
radii = [4, 2, 3]
cls_ids = [0, 2, 1]
'''
CELL = '''
for k in range(len(radii)):
    draw_gaussian_to_heatmap(heatmap[cls_ids[k]], centers[k], radii[k])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
