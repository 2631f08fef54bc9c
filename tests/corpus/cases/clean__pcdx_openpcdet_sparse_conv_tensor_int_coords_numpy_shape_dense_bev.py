"""Look-alike: OpenPCDet wraps float voxel coords as int32 spconv indices with a numpy spatial shape, then densifies to BEV.

Source: https://github.com/open-mmlab/OpenPCDet/blob/master/pcdet/models/backbones_3d/spconv_backbone.py
(`VoxelBackBone8x`: `spconv.SparseConvTensor(features=voxel_features, indices=voxel_coords.int(),
spatial_shape=self.sparse_shape, batch_size=batch_size)` with `self.sparse_shape = grid_size[::-1] +
[1, 0, 0]`, a numpy array) and pcdet/models/backbones_2d/map_to_bev/height_compression.py
(`encoded_spconv_tensor.dense()` then `view(N, C * D, H, W)`). The coords arrive as float from
`load_data_to_gpu`, become int32 indices, the grid shape stays a host numpy array, and spconv's
`dense()` scatters with `.long()` indices into a zeros tensor on the features' device: the cell
runs. Stand-ins: spconv 1.x `SparseConvTensor`/`scatter_nd` reduced to `dense()`; the sparse
conv stack is left out (the input tensor is densified). Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import types
import numpy as np
import torch
import torch.nn as nn

def scatter_nd(indices, updates, shape):
    """Stand-in for spconv.utils.scatter_nd."""
    ret = torch.zeros(*shape, dtype=updates.dtype, device=updates.device)
    ndim = indices.shape[-1]
    output_shape = list(indices.shape[:-1]) + shape[indices.shape[-1]:]
    flatted_indices = indices.view(-1, ndim)
    slices = [flatted_indices[:, i] for i in range(ndim)]
    slices += [Ellipsis]
    ret[tuple(slices)] = updates.view(*output_shape)
    return ret

class SparseConvTensor:
    """Stand-in for spconv.SparseConvTensor (features, int32 indices, spatial shape)."""
    def __init__(self, features, indices, spatial_shape, batch_size, grid=None):
        self.features = features
        self.indices = indices
        self.spatial_shape = spatial_shape
        self.batch_size = batch_size
        self.indice_dict = {}
        self.grid = grid

    def dense(self, channels_first=True):
        output_shape = [self.batch_size] + list(self.spatial_shape) + [self.features.shape[1]]
        res = scatter_nd(self.indices.long(), self.features, output_shape)
        if not channels_first:
            return res
        ndim = len(self.spatial_shape)
        trans_params = list(range(0, ndim + 1))
        trans_params.insert(1, ndim + 1)
        return res.permute(*trans_params).contiguous()

class VoxelBackBone8x(nn.Module):
    def __init__(self, model_cfg, input_channels, grid_size, **kwargs):
        super().__init__()
        self.model_cfg = model_cfg
        self.sparse_shape = grid_size[::-1] + [1, 0, 0]

    def forward(self, batch_dict):
        voxel_features, voxel_coords = batch_dict['voxel_features'], batch_dict['voxel_coords']
        batch_size = batch_dict['batch_size']
        input_sp_tensor = SparseConvTensor(
            features=voxel_features,
            indices=voxel_coords.int(),
            spatial_shape=self.sparse_shape,
            batch_size=batch_size
        )
        out = input_sp_tensor                  # conv_input ... conv_out left out (stand-in)
        batch_dict.update({
            'encoded_spconv_tensor': out,
            'encoded_spconv_tensor_stride': 8
        })
        return batch_dict

class HeightCompression(nn.Module):
    def __init__(self, model_cfg, **kwargs):
        super().__init__()
        self.model_cfg = model_cfg
        self.num_bev_features = self.model_cfg.NUM_BEV_FEATURES

    def forward(self, batch_dict):
        encoded_spconv_tensor = batch_dict['encoded_spconv_tensor']
        spatial_features = encoded_spconv_tensor.dense()
        N, C, D, H, W = spatial_features.shape
        spatial_features = spatial_features.view(N, C * D, H, W)
        batch_dict['spatial_features'] = spatial_features
        batch_dict['spatial_features_stride'] = batch_dict['encoded_spconv_tensor_stride']
        return batch_dict

device = torch.device("meta")            # cuda:0 on the training box
grid_size = np.array([176, 200, 4])       # voxel grid from the dataset's point cloud range (x, y, z)
backbone_3d = VoxelBackBone8x(types.SimpleNamespace(NAME='VoxelBackBone8x'), input_channels=16,
                              grid_size=grid_size).to(device)
map_to_bev = HeightCompression(types.SimpleNamespace(NUM_BEV_FEATURES=16 * 5)).to(device)

# one batch after MeanVFE: float voxel coords (batch_idx, z, y, x) from load_data_to_gpu
num_voxels = 500
voxel_coords = torch.stack([torch.randint(0, 2, (num_voxels,)), torch.randint(0, 5, (num_voxels,)),
                            torch.randint(0, 200, (num_voxels,)), torch.randint(0, 176, (num_voxels,))], 1).float()
batch_dict = {'voxel_features': torch.randn(num_voxels, 16).to(device),
              'voxel_coords': voxel_coords.to(device), 'batch_size': 2}
'''
CELL = '''
batch_dict = backbone_3d(batch_dict)
batch_dict = map_to_bev(batch_dict)
spatial_features = batch_dict['spatial_features']
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
