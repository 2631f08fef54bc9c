"""Lift-Splat-Shoot: the frustum and the BEV grid (dx, bx, nx) are built on the CPU in `__init__` but wrapped in `nn.Parameter`, so `model.to(device)` moves them.

Source: https://github.com/nv-tlabs/lift-splat-shoot/blob/master/src/models.py
`LiftSplatShoot.__init__` builds `dx, bx, nx = gen_dx_bx(...)` with `torch.Tensor`/`torch.LongTensor`
and the frustum with `torch.arange`/`torch.linspace` (no device), then stores each as
`nn.Parameter(..., requires_grad=False)`; `train.py` does `model.to(device)` and moves every camera
matrix from the loader with `.to(device)` before `get_geometry`/`voxel_pooling`. Look-alike: CPU
tensors created without a device inside the model, registered so they follow `.to()`; it runs.
Stand-in: `gen_dx_bx`, `create_frustum`, `get_geometry` and the quantisation step of
`voxel_pooling` (CamEncode/BevEncode and the cumsum pooling left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def gen_dx_bx(xbound, ybound, zbound):
    dx = torch.Tensor([row[2] for row in [xbound, ybound, zbound]])
    bx = torch.Tensor([row[0] + row[2]/2.0 for row in [xbound, ybound, zbound]])
    nx = torch.LongTensor([(row[1] - row[0]) / row[2] for row in [xbound, ybound, zbound]])
    return dx, bx, nx


class LiftSplatShoot(nn.Module):
    def __init__(self, grid_conf, data_aug_conf, outC):
        super(LiftSplatShoot, self).__init__()
        self.grid_conf = grid_conf
        self.data_aug_conf = data_aug_conf

        dx, bx, nx = gen_dx_bx(self.grid_conf['xbound'],
                               self.grid_conf['ybound'],
                               self.grid_conf['zbound'],
                               )
        self.dx = nn.Parameter(dx, requires_grad=False)
        self.bx = nn.Parameter(bx, requires_grad=False)
        self.nx = nn.Parameter(nx, requires_grad=False)

        self.downsample = 16
        self.camC = 64
        self.frustum = self.create_frustum()
        self.D, _, _, _ = self.frustum.shape

    def create_frustum(self):
        # make grid in image plane
        ogfH, ogfW = self.data_aug_conf['final_dim']
        fH, fW = ogfH // self.downsample, ogfW // self.downsample
        ds = torch.arange(*self.grid_conf['dbound'], dtype=torch.float).view(-1, 1, 1).expand(-1, fH, fW)
        D, _, _ = ds.shape
        xs = torch.linspace(0, ogfW - 1, fW, dtype=torch.float).view(1, 1, fW).expand(D, fH, fW)
        ys = torch.linspace(0, ogfH - 1, fH, dtype=torch.float).view(1, fH, 1).expand(D, fH, fW)

        # D x H x W x 3
        frustum = torch.stack((xs, ys, ds), -1)
        return nn.Parameter(frustum, requires_grad=False)

    def get_geometry(self, rots, trans, intrins, post_rots, post_trans):
        B, N, _ = trans.shape

        # undo post-transformation
        # B x N x D x H x W x 3
        points = self.frustum - post_trans.view(B, N, 1, 1, 1, 3)
        points = torch.inverse(post_rots).view(B, N, 1, 1, 1, 3, 3).matmul(points.unsqueeze(-1))

        # cam_to_ego
        points = torch.cat((points[:, :, :, :, :, :2] * points[:, :, :, :, :, 2:3],
                            points[:, :, :, :, :, 2:3]
                            ), 5)
        combine = rots.matmul(torch.inverse(intrins))
        points = combine.view(B, N, 1, 1, 1, 3, 3).matmul(points).squeeze(-1)
        points += trans.view(B, N, 1, 1, 1, 3)

        return points


grid_conf = {
    'xbound': [-50.0, 50.0, 0.5],
    'ybound': [-50.0, 50.0, 0.5],
    'zbound': [-10.0, 10.0, 20.0],
    'dbound': [4.0, 45.0, 1.0],
}
data_aug_conf = {'final_dim': (128, 352)}
gpuid = 0
device = torch.device('cpu') if gpuid < 0 else torch.device(f'cuda:{gpuid}')
model = LiftSplatShoot(grid_conf, data_aug_conf, outC=1)
model.to(device)

# one batch from the nuScenes loader (CPU): 2 samples x 6 cameras
B, N = 2, 6
rots = torch.eye(3).repeat(B, N, 1, 1)
trans = torch.randn(B, N, 3)
intrins = torch.tensor([[1266.0, 0.0, 816.0], [0.0, 1266.0, 491.0], [0.0, 0.0, 1.0]]).repeat(B, N, 1, 1)
post_rots = torch.eye(3).repeat(B, N, 1, 1) * 0.22
post_trans = torch.zeros(B, N, 3)
'''
CELL = '''
geom = model.get_geometry(rots.to(device), trans.to(device), intrins.to(device),
                          post_rots.to(device), post_trans.to(device))
# voxel_pooling: flatten indices
geom_feats = ((geom - (model.bx - model.dx/2.)) / model.dx).long()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
