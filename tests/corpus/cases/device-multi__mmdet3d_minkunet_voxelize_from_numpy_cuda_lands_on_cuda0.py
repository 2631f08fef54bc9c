"""mmdet3d `Det3DDataPreprocessor.voxelize` (minkunet branch) puts the voxel index maps on `.cuda()`.

Source: https://github.com/open-mmlab/mmdetection3d/pull/3140
"Replace hardcoded .cuda() with device-aware .to() in MinkUNet voxelization": the `minkunet` branch
turns the numpy results of `sparse_quantize` back into tensors with `torch.from_numpy(inds).cuda()`
and `torch.from_numpy(point2voxel_map).cuda()`. `.cuda()` means the *current* CUDA device (cuda:0),
so in a multi-GPU setup where a rank's points live on cuda:1, `res_coors[inds]` / `res[inds]` index a
cuda:1 tensor with cuda:0 indices and fail. The PR uses `.to(res.device)`.
Stand-ins: `.cuda()` is written `.to("cuda:0")` (the default device) because the simulator has no
CUDA runtime; `sparse_quantize` (ravel_hash + np.unique) cannot read simulated values, so it returns
a fixed subsample of the points with the matching inverse map (shapes and dtypes as the original);
`res_coors[inds]` / `res[inds]` are written as the equivalent `index_select(0, inds)` (the simulator
has no tensor-index getitem); `points[0].new_tensor(voxel_size)` is spelled `torch.tensor(..., device=points[0].device)`; the
data samples / training-only random subsampling are left out.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from types import SimpleNamespace

class Det3DDataPreprocessor:
    def __init__(self, voxel=True, voxel_type='minkunet', batch_first=True, max_voxels=80000,
                 voxel_layer=None):
        self.voxel = voxel
        self.voxel_type = voxel_type
        self.batch_first = batch_first
        self.max_voxels = max_voxels
        self.voxel_layer = SimpleNamespace(**voxel_layer)
        self.training = False

    def sparse_quantize(self, coords, return_index=False, return_inverse=False):
        # stand-in for ravel_hash + np.unique: keep every 2nd point, map each point to its voxel
        n = coords.shape[0]
        indices = np.arange(0, n, 2, dtype=np.int64)
        inverse_indices = np.arange(n, dtype=np.int64) // 2
        return indices, inverse_indices

    @torch.no_grad()
    def voxelize(self, points, data_samples):
        voxel_dict = dict()
        if self.voxel_type == 'minkunet':
            voxels, coors = [], []
            voxel_size = torch.tensor(self.voxel_layer.voxel_size, device=points[0].device)  # points[0].new_tensor(...)
            for i, (res, data_sample) in enumerate(zip(points, data_samples)):
                res_coors = torch.round(res[:, :3] / voxel_size).int()
                res_coors -= res_coors.min(0)[0]

                res_coors_numpy = res_coors          # .cpu().numpy() in mmdet3d (see docstring)
                inds, point2voxel_map = self.sparse_quantize(
                    res_coors_numpy, return_index=True, return_inverse=True)
                point2voxel_map = torch.from_numpy(point2voxel_map).to("cuda:0")   # .cuda()
                inds = torch.from_numpy(inds).to("cuda:0")                         # .cuda()
                res_voxel_coors = res_coors.index_select(0, inds)   # res_coors[inds]
                res_voxels = res.index_select(0, inds)               # res[inds]
                if self.batch_first:
                    res_voxel_coors = F.pad(
                        res_voxel_coors, (1, 0), mode='constant', value=i)
                else:
                    res_voxel_coors = F.pad(
                        res_voxel_coors, (0, 1), mode='constant', value=i)
                voxels.append(res_voxels)
                coors.append(res_voxel_coors)
            voxels = torch.cat(voxels, dim=0)
            coors = torch.cat(coors, dim=0)
        voxel_dict['voxels'] = voxels
        voxel_dict['coors'] = coors
        return voxel_dict

data_preprocessor = Det3DDataPreprocessor(
    voxel=True, voxel_type='minkunet', batch_first=False, max_voxels=80000,
    voxel_layer=dict(max_num_points=-1, point_cloud_range=[-100, -100, -20, 100, 100, 20],
                     voxel_size=[0.05, 0.05, 0.05], max_voxels=(-1, -1)))

# DDP rank 1: this process's batch of SemanticKITTI scans lives on cuda:1
device = torch.device("cuda:1")
points = [torch.rand(4000, 4, device=device) * 40 - 20 for _ in range(2)]
data_samples = [SimpleNamespace() for _ in range(2)]
'''
CELL = '''
voxel_dict = data_preprocessor.voxelize(points, data_samples)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "indices should be either on cpu or on the same device", "is not on the expected device")
CULPRITS = ["data_preprocessor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                point2voxel_map = torch.from_numpy(point2voxel_map).to("cuda:0")   # .cuda()
                inds = torch.from_numpy(inds).to("cuda:0")                         # .cuda()""",
                  """                point2voxel_map = torch.from_numpy(point2voxel_map).to(res.device)
                inds = torch.from_numpy(inds).to(res.device)""")
CLEAN = False
