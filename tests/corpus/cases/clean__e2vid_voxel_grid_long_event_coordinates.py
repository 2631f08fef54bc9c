"""Look-alike: the event voxel grid built with integer pixel coordinates (`.long()`) and float values.

Source: https://github.com/uzh-rpg/rpg_e2vid/issues/5
After the fix from the thread, `xs` and `ys` are cast to long before the flat index is formed; the
float polarity/time weights go into a float32 grid with `index_add_`. The events tensor itself is
still float32, as it comes from NumPy. Nothing is wrong.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def events_to_voxel_grid_pytorch(events, num_bins, width, height):
    voxel_grid = torch.zeros(num_bins, height, width, dtype=torch.float32).flatten()
    last_stamp, first_stamp = events[-1, 0], events[0, 0]
    deltaT = max(last_stamp - first_stamp, 1.0)
    ts = (num_bins - 1) * (events[:, 0] - first_stamp) / deltaT
    xs = events[:, 1].long()
    ys = events[:, 2].long()
    pols = events[:, 3].float()
    pols[pols == 0] = -1
    tis = torch.floor(ts)
    tis_long = tis.long()
    dts = ts - tis
    vals_left = pols * (1.0 - dts.float())
    valid_indices = tis < num_bins
    voxel_grid.index_add_(dim=0,
                          index=xs[valid_indices] + ys[valid_indices] * width
                          + tis_long[valid_indices] * width * height,
                          source=vals_left[valid_indices])
    return voxel_grid.view(num_bins, height, width)

rng = np.random.default_rng(0)
n = 200
ev = np.stack([np.sort(rng.uniform(0, 1, n)), rng.integers(0, 32, n), rng.integers(0, 24, n),
               rng.integers(0, 2, n)], axis=1).astype(np.float32)
events = torch.from_numpy(ev)
'''
CELL = '''
voxel = events_to_voxel_grid_pytorch(events, num_bins=5, width=32, height=24)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
