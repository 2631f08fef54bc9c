"""Look-alike: OpenPCDet's PointPillarScatter indexes the BEV canvas with coordinates that arrive as float.

Source: https://github.com/open-mmlab/OpenPCDet/blob/master/pcdet/models/backbones_2d/map_to_bev/pointpillar_scatter.py
`load_data_to_gpu` turns every numpy array of the batch (the int32 `voxel_coords` included) into a
float tensor, so `coords` is float32 when it reaches the scatter. The module builds the flat index
from the float coordinates and casts it with `indices = indices.type(torch.long)` before writing
the pillar features into the canvas: float coordinates next to an index op, on purpose, and the
cell runs. Stand-ins: the pillar VFE output is random; `load_data_to_gpu` keeps to the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def load_data_to_gpu(batch_dict):
    for key, val in batch_dict.items():
        if not isinstance(val, np.ndarray):
            continue
        elif key in ['frame_id', 'metadata', 'calib']:
            continue
        elif key in ['image_shape']:
            batch_dict[key] = torch.from_numpy(val).int()
        else:
            batch_dict[key] = torch.from_numpy(val).float()        # .cuda() on a GPU box

class PointPillarScatter(nn.Module):
    def __init__(self, num_bev_features, grid_size):
        super().__init__()
        self.num_bev_features = num_bev_features
        self.nx, self.ny, self.nz = grid_size
        assert self.nz == 1

    def forward(self, batch_dict, **kwargs):
        pillar_features, coords = batch_dict['pillar_features'], batch_dict['voxel_coords']
        batch_spatial_features = []
        batch_size = coords[:, 0].max().int().item() + 1
        for batch_idx in range(batch_size):
            spatial_feature = torch.zeros(
                self.num_bev_features,
                self.nz * self.nx * self.ny,
                dtype=pillar_features.dtype,
                device=pillar_features.device)

            batch_mask = coords[:, 0] == batch_idx
            this_coords = coords[batch_mask, :]
            indices = this_coords[:, 1] + this_coords[:, 2] * self.nx + this_coords[:, 3]
            indices = indices.type(torch.long)
            pillars = pillar_features[batch_mask, :]
            pillars = pillars.t()
            spatial_feature[:, indices] = pillars
            batch_spatial_features.append(spatial_feature)

        batch_spatial_features = torch.stack(batch_spatial_features, 0)
        batch_spatial_features = batch_spatial_features.view(batch_size, self.num_bev_features * self.nz, self.ny, self.nx)
        batch_dict['spatial_features'] = batch_spatial_features
        return batch_dict

grid_size = (64, 48, 1)
map_to_bev = PointPillarScatter(num_bev_features=32, grid_size=grid_size)

rng = np.random.default_rng(0)
n = 400
flat = rng.choice(grid_size[0] * grid_size[1], size=n, replace=False)
voxel_coords = np.stack([np.repeat([0, 1], n // 2), np.zeros(n), flat // grid_size[0], flat % grid_size[0]], 1).astype(np.int32)
batch_dict = {'voxel_coords': voxel_coords, 'frame_id': np.array(['000001', '000002']),
              'batch_size': 2}
load_data_to_gpu(batch_dict)
batch_dict['pillar_features'] = torch.randn(n, 32)              # PillarVFE output
'''
CELL = '''
batch_dict = map_to_bev(batch_dict)
bev = batch_dict['spatial_features']
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
