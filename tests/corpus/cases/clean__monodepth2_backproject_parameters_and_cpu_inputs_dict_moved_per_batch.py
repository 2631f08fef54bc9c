"""Look-alike: monodepth2 keeps the per-batch inputs dict on the CPU and moves every entry in process_batch.

Source: https://github.com/nianticlabs/monodepth2/blob/master/trainer.py
The KITTI loader returns a dict of CPU tensors (`("color", 0, 0)`, `("K", 0)`, `("inv_K", 0)`,
built from numpy with `np.linalg.pinv`); `Trainer.process_batch` starts with
`for key, ipt in inputs.items(): inputs[key] = ipt.to(self.device)`. The geometry layers keep
their pixel grids as `nn.Parameter(requires_grad=False)` and are moved with
`self.backproject_depth[scale].to(self.device)`. A CPU dict of tensors next to a GPU model, on
purpose, and the cell runs. Stand-ins: the depth network's output is a random disparity; only
scale 0 and one source frame.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class BackprojectDepth(nn.Module):
    """Layer to transform a depth image into a point cloud"""
    def __init__(self, batch_size, height, width):
        super(BackprojectDepth, self).__init__()
        self.batch_size = batch_size
        self.height = height
        self.width = width
        meshgrid = np.meshgrid(range(self.width), range(self.height), indexing='xy')
        self.id_coords = np.stack(meshgrid, axis=0).astype(np.float32)
        self.id_coords = nn.Parameter(torch.from_numpy(self.id_coords), requires_grad=False)
        self.ones = nn.Parameter(torch.ones(self.batch_size, 1, self.height * self.width), requires_grad=False)
        self.pix_coords = torch.unsqueeze(torch.stack(
            [self.id_coords[0].view(-1), self.id_coords[1].view(-1)], 0), 0)
        self.pix_coords = self.pix_coords.repeat(batch_size, 1, 1)
        self.pix_coords = nn.Parameter(torch.cat([self.pix_coords, self.ones], 1), requires_grad=False)

    def forward(self, depth, inv_K):
        cam_points = torch.matmul(inv_K[:, :3, :3], self.pix_coords)
        cam_points = depth.view(self.batch_size, 1, -1) * cam_points
        cam_points = torch.cat([cam_points, self.ones], 1)
        return cam_points

class Project3D(nn.Module):
    """Layer which projects 3D points into a camera with intrinsics K and at position T"""
    def __init__(self, batch_size, height, width, eps=1e-7):
        super(Project3D, self).__init__()
        self.batch_size = batch_size
        self.height = height
        self.width = width
        self.eps = eps

    def forward(self, points, K, T):
        P = torch.matmul(K, T)[:, :3, :]
        cam_points = torch.matmul(P, points)
        pix_coords = cam_points[:, :2, :] / (cam_points[:, 2, :].unsqueeze(1) + self.eps)
        pix_coords = pix_coords.view(self.batch_size, 2, self.height, self.width)
        pix_coords = pix_coords.permute(0, 2, 3, 1)
        pix_coords[..., 0].div_(self.width - 1)      # pix_coords[..., 0] /= self.width - 1
        pix_coords[..., 1].div_(self.height - 1)     # pix_coords[..., 1] /= self.height - 1
        pix_coords = (pix_coords - 0.5) * 2
        return pix_coords

device = torch.device("cuda:0")
B, H, W = 2, 48, 160
backproject_depth = {0: BackprojectDepth(B, H, W).to(device)}
project_3d = {0: Project3D(B, H, W).to(device)}

K = np.array([[0.58, 0, 0.5, 0], [0, 1.92, 0.5, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=np.float32)
K[0, :] *= W
K[1, :] *= H
inv_K = np.linalg.pinv(K)
inputs = {("color", 0, 0): torch.rand(B, 3, H, W),
          ("K", 0): torch.from_numpy(K).expand(B, 4, 4).contiguous(),
          ("inv_K", 0): torch.from_numpy(inv_K).expand(B, 4, 4).contiguous()}
depth = torch.rand(B, 1, H, W).to(device) * 80 + 0.1            # disp_to_depth(outputs[("disp", 0)])
T = torch.eye(4).expand(B, 4, 4).contiguous().to(device)          # transformation_from_parameters(...)
'''
CELL = '''
for key, ipt in inputs.items():
    inputs[key] = ipt.to(device)
cam_points = backproject_depth[0](depth, inputs[("inv_K", 0)])
pix_coords = project_3d[0](cam_points, inputs[("K", 0)], T)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
