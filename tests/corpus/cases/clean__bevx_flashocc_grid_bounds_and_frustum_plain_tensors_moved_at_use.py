"""FlashOcc (BEVDet-style LSSViewTransformer): the frustum and the grid bounds are plain CPU tensor attributes that `.to()` never moves, converted with `.to(sensor2ego)` / `.to(coor)` where they are used.

Source: https://github.com/Yzichen/FlashOCC/blob/master/projects/mmdet3d_plugin/models/necks/view_transformer.py
`LSSViewTransformer.create_grid_infos` stores `grid_lower_bound`, `grid_interval` and `grid_size`
as plain `torch.Tensor([...])` attributes and `create_frustum` returns a plain CPU tensor (neither
is a parameter or buffer, so `model.cuda()` leaves them on the CPU). `get_ego_coor` does
`self.frustum.to(sensor2ego) - post_trans.view(...)`, and `voxel_pooling_prepare_v2` does
`(coor - self.grid_lower_bound.to(coor)) / self.grid_interval.to(coor)`, builds `ranks_*` with
`device=coor.device`, moves `batch_idx` with `.to(coor)`, and compares with 0-dim `grid_size[i]`.
Look-alike: unregistered CPU tensors on a GPU model, each moved at its use site; it runs.
Stand-in: `create_grid_infos`, `create_frustum`, `get_ego_coor` and `voxel_pooling_prepare_v2` up
to the in-range mask (the boolean filtering, sorting and the CUDA bev_pool_v2 are left out); the
GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn


class LSSViewTransformer(nn.Module):
    def __init__(self, grid_config, input_size, downsample=16, in_channels=512,
                 out_channels=64, accelerate=False, sid=False, collapse_z=True):
        super(LSSViewTransformer, self).__init__()
        self.grid_config = grid_config
        self.downsample = downsample
        self.create_grid_infos(**grid_config)
        self.sid = sid
        self.frustum = self.create_frustum(grid_config['depth'],
                                           input_size, downsample)      # (D, fH, fW, 3)  3:(u, v, d)
        self.out_channels = out_channels
        self.in_channels = in_channels
        self.depth_net = nn.Conv2d(
            in_channels, self.D + self.out_channels, kernel_size=1, padding=0)
        self.accelerate = accelerate
        self.initial_flag = True
        self.collapse_z = collapse_z

    def create_grid_infos(self, x, y, z, **kwargs):
        self.grid_lower_bound = torch.Tensor([cfg[0] for cfg in [x, y, z]])     # (min_x, min_y, min_z)
        self.grid_interval = torch.Tensor([cfg[2] for cfg in [x, y, z]])        # (dx, dy, dz)
        self.grid_size = torch.Tensor([(cfg[1] - cfg[0]) / cfg[2]
                                       for cfg in [x, y, z]])                   # (Dx, Dy, Dz)

    def create_frustum(self, depth_cfg, input_size, downsample):
        H_in, W_in = input_size
        H_feat, W_feat = H_in // downsample, W_in // downsample
        d = torch.arange(*depth_cfg, dtype=torch.float)\\
            .view(-1, 1, 1).expand(-1, H_feat, W_feat)      # (D, fH, fW)
        self.D = d.shape[0]
        x = torch.linspace(0, W_in - 1, W_feat,  dtype=torch.float)\\
            .view(1, 1, W_feat).expand(self.D, H_feat, W_feat)      # (D, fH, fW)
        y = torch.linspace(0, H_in - 1, H_feat,  dtype=torch.float)\\
            .view(1, H_feat, 1).expand(self.D, H_feat, W_feat)      # (D, fH, fW)

        return torch.stack((x, y, d), -1)    # (D, fH, fW, 3)  3:(u, v, d)

    def get_ego_coor(self, sensor2ego, ego2global, cam2imgs, post_rots, post_trans, bda):
        B, N, _, _ = sensor2ego.shape

        # post-transformation
        # (D, fH, fW, 3) - (B, N, 1, 1, 1, 3) --> (B, N, D, fH, fW, 3)
        points = self.frustum.to(sensor2ego) - post_trans.view(B, N, 1, 1, 1, 3)
        # (B, N, 1, 1, 1, 3, 3) @ (B, N, D, fH, fW, 3, 1)  --> (B, N, D, fH, fW, 3, 1)
        points = torch.inverse(post_rots).view(B, N, 1, 1, 1, 3, 3)\\
            .matmul(points.unsqueeze(-1))

        # cam_to_ego
        points = torch.cat(
            (points[..., :2, :] * points[..., 2:3, :], points[..., 2:3, :]), 5)
        # R_{c->e} @ K^-1
        combine = sensor2ego[:, :, :3, :3].matmul(torch.inverse(cam2imgs))
        points = combine.view(B, N, 1, 1, 1, 3, 3).matmul(points).squeeze(-1)
        points += sensor2ego[:, :, :3, 3].view(B, N, 1, 1, 1, 3)

        points = bda.view(B, 1, 1, 1, 1, 3,
                          3).matmul(points.unsqueeze(-1)).squeeze(-1)
        return points

    def voxel_pooling_prepare_v2(self, coor):
        B, N, D, H, W, _ = coor.shape
        num_points = B * N * D * H * W
        # record the index of selected points for acceleration purpose
        ranks_depth = torch.range(
            0, num_points - 1, dtype=torch.int, device=coor.device)    # (B*N*D*H*W, ), [0, 1, ..., B*N*D*fH*fW-1]
        ranks_feat = torch.range(
            0, num_points // D - 1, dtype=torch.int, device=coor.device)   # [0, 1, ...,B*N*fH*fW-1]
        ranks_feat = ranks_feat.reshape(B, N, 1, H, W)
        ranks_feat = ranks_feat.expand(B, N, D, H, W).flatten()     # (B*N*D*fH*fW, )

        # convert coordinate into the voxel space
        coor = ((coor - self.grid_lower_bound.to(coor)) /
                self.grid_interval.to(coor))
        coor = coor.long().view(num_points, 3)      # (B, N, D, fH, fW, 3) --> (B*N*D*fH*fW, 3)
        # (B, N*D*fH*fW) --> (B*N*D*fH*fW, 1)
        batch_idx = torch.range(0, B - 1).reshape(B, 1). \\
            expand(B, num_points // B).reshape(num_points, 1).to(coor)
        coor = torch.cat((coor, batch_idx), 1)      # (B*N*D*fH*fW, 4)   4: (x, y, z, batch_id)

        # filter out points that are outside box
        kept = (coor[:, 0] >= 0) & (coor[:, 0] < self.grid_size[0]) & \\
               (coor[:, 1] >= 0) & (coor[:, 1] < self.grid_size[1]) & \\
               (coor[:, 2] >= 0) & (coor[:, 2] < self.grid_size[2])
        return coor, ranks_depth, ranks_feat, kept


grid_config = {
    'x': [-40, 40, 0.4],
    'y': [-40, 40, 0.4],
    'z': [-1, 5.4, 6.4],
    'depth': [1.0, 45.0, 0.5],
}
img_view_transformer = LSSViewTransformer(grid_config=grid_config, input_size=(256, 704),
                                          downsample=16, in_channels=256, out_channels=64)
device = torch.device('meta')   # the GPU, simulated with meta
img_view_transformer = img_view_transformer.to(device)   # model.cuda() in the runner

# camera inputs of one batch on the GPU (MMDataParallel scatters them): bs=1, 6 cameras
B, N = 1, 6
sensor2ego = torch.eye(4).repeat(B, N, 1, 1).to(device)
ego2global = torch.eye(4).repeat(B, N, 1, 1).to(device)
cam2imgs = torch.tensor([[1266.0, 0.0, 816.0], [0.0, 1266.0, 491.0],
                         [0.0, 0.0, 1.0]]).repeat(B, N, 1, 1).to(device)
post_rots = (torch.eye(3) * 0.44).repeat(B, N, 1, 1).to(device)
post_trans = torch.zeros(B, N, 3).to(device)
bda = torch.eye(3).repeat(B, 1, 1).to(device)
'''
CELL = '''
coor = img_view_transformer.get_ego_coor(sensor2ego, ego2global, cam2imgs,
                                         post_rots, post_trans, bda)      # (B, N, D, fH, fW, 3)
coor_vox, ranks_depth, ranks_feat, kept = img_view_transformer.voxel_pooling_prepare_v2(coor)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
