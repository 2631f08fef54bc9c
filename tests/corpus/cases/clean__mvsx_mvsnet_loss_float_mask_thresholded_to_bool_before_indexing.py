"""MVSNet-pytorch `mvsnet_loss`: the dataset's float32 depth mask is turned into a bool mask (`mask > 0.5`) before it indexes the depth maps.

Source: https://github.com/xy-guo/MVSNet_pytorch/blob/master/models/mvsnet.py
The DTU loader reads `depth_visual_*.png` into a float32 mask of 0/1 values (with the depth map and
the depth hypotheses as float32 arrays). `mvsnet_loss(depth_est, depth_gt, mask)` does
`mask = mask > 0.5` and returns `F.smooth_l1_loss(depth_est[mask], depth_gt[mask])`; train.py calls
it with `sample_cuda["depth"]` and `sample_cuda["mask"]`. Look-alike: a float tensor used as a mask,
converted to bool on purpose before boolean indexing, so no float index ever reaches `[]`.
Stand-ins: one CPU batch (dtype-only case) with the loader's float32 mask; `size_average=True`
(deprecated) written as its equivalent `reduction='mean'`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

def mvsnet_loss(depth_est, depth_gt, mask):
    mask = mask > 0.5
    return F.smooth_l1_loss(depth_est[mask], depth_gt[mask], reduction='mean')

# one DTU sample as the loader returns it: float32 arrays, the mask read from depth_visual_*.png
mask_np = (np.random.rand(2, 128, 160) > 0.3).astype(np.float32)
depth_np = (np.random.rand(2, 128, 160) * 500 + 425).astype(np.float32)
sample = {"depth": torch.from_numpy(depth_np), "mask": torch.from_numpy(mask_np)}
depth_est = torch.rand(2, 128, 160) * 500 + 425      # outputs["depth"]
'''
CELL = '''
depth_gt = sample["depth"]
mask = sample["mask"]
loss = mvsnet_loss(depth_est, depth_gt, mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
