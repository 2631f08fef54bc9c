"""mmcv `Voxelization` builds voxel_size / coors_range as CPU tensors and hands them to the kernel with device points.

Source: https://github.com/open-mmlab/mmcv/pull/2681
"Move voxel_size to the device where points are": `_Voxelization.forward` calls
`ext_module.dynamic_voxelize_forward(points, torch.tensor(voxel_size, dtype=torch.float),
torch.tensor(coors_range, dtype=torch.float), coors, NDim=3)`; both parameter tensors are created
on the CPU while the lidar points live on the accelerator, and a kernel that does arithmetic with
them (the NPU one in the PR) fails on the mixed devices. The fix moves them to `points.device`.
Stand-ins: the extension's dynamic voxelization written in torch (floor((p - min) / size), zyx
order); mmdet3d's dynamic-voxelization detector reduced to the voxel layer call.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

def _dynamic_voxelize_forward(points, voxel_size, coors_range, coors, NDim=3):
    """Stand-in for the device kernel: integer voxel coordinate of every point (z, y, x)."""
    c = torch.floor((points[:, :NDim] - coors_range[:NDim]) / voxel_size)
    coors.add_(c.flip(-1).to(torch.int))          # written into the zero-initialised output

ext_module = SimpleNamespace(dynamic_voxelize_forward=_dynamic_voxelize_forward)

class _Voxelization(torch.autograd.Function):
    @staticmethod
    def forward(ctx, points, voxel_size, coors_range, max_points=35, max_voxels=20000,
                deterministic=True):
        if max_points == -1 or max_voxels == -1:
            coors = points.new_zeros(size=(points.size(0), 3), dtype=torch.int)
            ext_module.dynamic_voxelize_forward(
                points,
                torch.tensor(voxel_size, dtype=torch.float),
                torch.tensor(coors_range, dtype=torch.float),
                coors,
                NDim=3)
            return coors
        raise NotImplementedError("hard voxelization is not part of this stand-in")

voxelization = _Voxelization.apply

class Voxelization(nn.Module):
    def __init__(self, voxel_size, point_cloud_range, max_num_points, max_voxels=20000,
                 deterministic=True):
        super().__init__()
        self.voxel_size = voxel_size
        self.point_cloud_range = point_cloud_range
        self.max_num_points = max_num_points
        self.max_voxels = max_voxels
        self.deterministic = deterministic

    def forward(self, input):
        max_voxels = self.max_voxels if self.training else self.max_voxels
        return voxelization(input, self.voxel_size, self.point_cloud_range,
                            self.max_num_points, max_voxels, self.deterministic)

# dynamic voxelization as in mmdet3d's DynamicVoxelNet configs (max_num_points=-1)
voxel_layer = Voxelization(voxel_size=[0.16, 0.16, 4], point_cloud_range=[0, -39.68, -3, 69.12, 39.68, 1],
                           max_num_points=-1, max_voxels=-1)
device = torch.device("cuda:0")            # the NPU in the PR
points = (torch.rand(20000, 4) * torch.tensor([69.12, 79.36, 4.0, 1.0]) - torch.tensor([0, 39.68, 3.0, 0])).to(device)
'''
CELL = '''
coors = voxel_layer(points)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["voxel_layer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                torch.tensor(voxel_size, dtype=torch.float),
                torch.tensor(coors_range, dtype=torch.float),""",
                  """                torch.tensor(voxel_size, dtype=torch.float, device=points.device),
                torch.tensor(coors_range, dtype=torch.float, device=points.device),""")
CLEAN = False
