"""BEVDepth: `voxel_size`, `voxel_coord`, `voxel_num` and the 4-D frustum are CPU tensors built in `__init__`, registered with `register_buffer`, so they follow the model to the GPU.

Source: https://github.com/Megvii-BaseDetection/BEVDepth/blob/main/bevdepth/layers/backbones/base_lss_fpn.py
`BaseLSSFPN.__init__` creates `torch.Tensor([...])` / `torch.LongTensor([...])` grid constants and
`create_frustum()` (arange/linspace/ones_like, no device) and registers all four as buffers;
`_forward_single_sweep` runs `get_geometry(sensor2ego_mats, intrin_mats, ida_mats, bda_mat)` on the
batch's matrices (moved by Lightning) and quantises with
`((geom_xyz - (self.voxel_coord - self.voxel_size / 2.0)) / self.voxel_size).int()`. Look-alike: CPU
tensors made without a device inside the model, registered as buffers; it runs.
Stand-in: the grid/frustum part of `BaseLSSFPN` (image backbone, depth net and the CUDA voxel
pooling left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


class BaseLSSFPN(nn.Module):
    def __init__(self, x_bound, y_bound, z_bound, d_bound, final_dim, downsample_factor,
                 output_channels):
        super(BaseLSSFPN, self).__init__()
        self.downsample_factor = downsample_factor
        self.d_bound = d_bound
        self.final_dim = final_dim
        self.output_channels = output_channels

        self.register_buffer(
            'voxel_size',
            torch.Tensor([row[2] for row in [x_bound, y_bound, z_bound]]))
        self.register_buffer(
            'voxel_coord',
            torch.Tensor([
                row[0] + row[2] / 2.0 for row in [x_bound, y_bound, z_bound]
            ]))
        self.register_buffer(
            'voxel_num',
            torch.LongTensor([(row[1] - row[0]) / row[2]
                              for row in [x_bound, y_bound, z_bound]]))
        self.register_buffer('frustum', self.create_frustum())
        self.depth_channels, _, _, _ = self.frustum.shape

    def create_frustum(self):
        """Generate frustum"""
        # make grid in image plane
        ogfH, ogfW = self.final_dim
        fH, fW = ogfH // self.downsample_factor, ogfW // self.downsample_factor
        d_coords = torch.arange(*self.d_bound,
                                dtype=torch.float).view(-1, 1,
                                                        1).expand(-1, fH, fW)
        D, _, _ = d_coords.shape
        x_coords = torch.linspace(0, ogfW - 1, fW, dtype=torch.float).view(
            1, 1, fW).expand(D, fH, fW)
        y_coords = torch.linspace(0, ogfH - 1, fH,
                                  dtype=torch.float).view(1, fH,
                                                          1).expand(D, fH, fW)
        paddings = torch.ones_like(d_coords)

        # D x H x W x 3
        frustum = torch.stack((x_coords, y_coords, d_coords, paddings), -1)
        return frustum

    def get_geometry(self, sensor2ego_mat, intrin_mat, ida_mat, bda_mat):
        batch_size, num_cams, _, _ = sensor2ego_mat.shape

        # undo post-transformation
        # B x N x D x H x W x 3
        points = self.frustum
        ida_mat = ida_mat.view(batch_size, num_cams, 1, 1, 1, 4, 4)
        points = ida_mat.inverse().matmul(points.unsqueeze(-1))
        # cam_to_ego
        points = torch.cat(
            (points[:, :, :, :, :, :2] * points[:, :, :, :, :, 2:3],
             points[:, :, :, :, :, 2:]), 5)

        combine = sensor2ego_mat.matmul(torch.inverse(intrin_mat))
        points = combine.view(batch_size, num_cams, 1, 1, 1, 4,
                              4).matmul(points)
        if bda_mat is not None:
            bda_mat = bda_mat.unsqueeze(1).repeat(1, num_cams, 1, 1).view(
                batch_size, num_cams, 1, 1, 1, 4, 4)
            points = (bda_mat @ points).squeeze(-1)
        else:
            points = points.squeeze(-1)
        return points[..., :3]


backbone = BaseLSSFPN(x_bound=[-51.2, 51.2, 0.8], y_bound=[-51.2, 51.2, 0.8],
                      z_bound=[-5, 3, 8], d_bound=[2.0, 58.0, 0.5],
                      final_dim=(256, 704), downsample_factor=16, output_channels=80)
backbone = backbone.to('cuda:0')                 # Lightning puts the model on the GPU

# mats_dict of one key frame, already on the GPU (Lightning moves the batch)
B, N = 1, 6
intrin = torch.eye(4)
intrin[0, 0], intrin[1, 1], intrin[0, 2], intrin[1, 2] = 1266.0, 1266.0, 816.0, 491.0
mats_dict = {
    'sensor2ego_mats': torch.eye(4).repeat(B, 1, N, 1, 1).to('cuda:0'),
    'intrin_mats': intrin.repeat(B, 1, N, 1, 1).to('cuda:0'),
    'ida_mats': (torch.eye(4) * 0.44).repeat(B, 1, N, 1, 1).to('cuda:0'),
    'bda_mat': torch.eye(4).repeat(B, 1, 1).to('cuda:0'),
}
sweep_index = 0
'''
CELL = '''
geom_xyz = backbone.get_geometry(
    mats_dict['sensor2ego_mats'][:, sweep_index, ...],
    mats_dict['intrin_mats'][:, sweep_index, ...],
    mats_dict['ida_mats'][:, sweep_index, ...],
    mats_dict.get('bda_mat', None),
)
geom_xyz = ((geom_xyz - (backbone.voxel_coord - backbone.voxel_size / 2.0)) /
            backbone.voxel_size).int()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
