"""Event-camera voxel grid: `index_add_` gets an index computed from the float event coordinates.

Source: https://github.com/uzh-rpg/rpg_e2vid/issues/5
Running the reconstruction failed in `events_to_voxel_grid_pytorch` with "Expected object of scalar
type Long but got scalar type Float for argument #3 'index' in call to _th_index_add_": the events
array is float (t, x, y, p), so `xs`, `ys` stay float and the flat index `xs + ys * width + tis_long
* width * height` is float. The fix in the thread: build the index with `.long()`.
Stand-in: the function's bilinear-in-time accumulation, NumPy events as float32.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch

def events_to_voxel_grid_pytorch(events, num_bins, width, height):
    voxel_grid = torch.zeros(num_bins, height, width, dtype=torch.float32).flatten()
    last_stamp, first_stamp = events[-1, 0], events[0, 0]
    deltaT = max(last_stamp - first_stamp, 1.0)
    ts = (num_bins - 1) * (events[:, 0] - first_stamp) / deltaT
    xs = events[:, 1]
    ys = events[:, 2]
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
EXPECT_ERROR = ("Expected dtype int32/int64 for index", "Expected object of scalar type Long")
CULPRITS = ["events_to_voxel_grid_pytorch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    xs = events[:, 1]\n    ys = events[:, 2]",
    "    xs = events[:, 1].long()\n    ys = events[:, 2].long()",
)
CLEAN = False
