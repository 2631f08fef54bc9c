"""Look-alike: PointNet++ (yanx27) sampling builds its index tensors on the CPU and moves each one to the points' device.

Source: https://github.com/yanx27/Pointnet_Pointnet2_pytorch/blob/master/models/pointnet2_utils.py
`farthest_point_sample` creates `centroids`, `distance`, `farthest` and `batch_indices` with
`torch.zeros(...)`, `torch.ones(...)`, `torch.randint(...)` and `torch.arange(...)`, none with a
`device=` argument, and `index_points` does the same for its batch indices: the factory pattern a
checker might flag inside a CUDA model. Each is followed by `.to(device)` with `device = xyz.device`,
so sampling and grouping run on the GPU with the points. Stand-in: those two functions and a
kNN grouping step (`topk` instead of the ball query), with `gather`/`torch.minimum` for the
advanced indexing and masked assignment.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def square_distance(src, dst):
    return torch.sum((src.unsqueeze(2) - dst.unsqueeze(1)) ** 2, -1)

def index_points(points, idx):
    device = points.device
    B = points.shape[0]
    view_shape = list(idx.shape)
    view_shape[1:] = [1] * (len(view_shape) - 1)
    repeat_shape = list(idx.shape)
    repeat_shape[0] = 1
    batch_indices = torch.arange(B, dtype=torch.long).to(device).view(view_shape).repeat(repeat_shape)
    flat = (batch_indices * points.shape[1] + idx).reshape(-1)          # points[batch_indices, idx, :]
    return points.reshape(-1, points.shape[-1]).index_select(0, flat).view(*idx.shape, points.shape[-1])

def farthest_point_sample(xyz, npoint):
    device = xyz.device
    B, N, C = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long).to(device)
    distance = torch.ones(B, N).to(device) * 1e10
    farthest = torch.randint(0, N, (B,), dtype=torch.long).to(device)
    batch_indices = torch.arange(B, dtype=torch.long).to(device)
    picked = []
    for i in range(npoint):
        picked.append(farthest)                                        # centroids[:, i] = farthest
        centroid = index_points(xyz, farthest.view(B, 1)).view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        distance = torch.minimum(distance, dist)                       # distance[mask] = dist[mask]
        farthest = torch.max(distance, -1)[1]
    return centroids + torch.stack(picked, 1)

def sample_and_group(npoint, nsample, xyz, points):
    B, N, C = xyz.shape
    fps_idx = farthest_point_sample(xyz, npoint)
    new_xyz = index_points(xyz, fps_idx)
    idx = square_distance(new_xyz, xyz).topk(nsample, dim=-1, largest=False)[1]
    grouped_xyz = index_points(xyz, idx)
    grouped_xyz_norm = grouped_xyz - new_xyz.view(B, npoint, 1, C)
    grouped_points = index_points(points, idx)
    return new_xyz, torch.cat([grouped_xyz_norm, grouped_points], dim=-1)

class PointNetSetAbstraction(nn.Module):
    def __init__(self, npoint, nsample, in_channel, mlp):
        super().__init__()
        self.npoint, self.nsample = npoint, nsample
        layers, last = [], in_channel
        for out_channel in mlp:
            layers += [nn.Conv2d(last, out_channel, 1), nn.ReLU()]
            last = out_channel
        self.mlp = nn.Sequential(*layers)

    def forward(self, xyz, points):
        new_xyz, new_points = sample_and_group(self.npoint, self.nsample, xyz, points)
        new_points = self.mlp(new_points.permute(0, 3, 2, 1))
        return new_xyz, torch.max(new_points, 2)[0]

device = torch.device("cuda:0")
sa1 = PointNetSetAbstraction(npoint=64, nsample=16, in_channel=3 + 3, mlp=[32, 32, 64]).to(device)
points = torch.rand(4, 1024, 6)                                  # xyz + normals, from the ModelNet loader
'''
CELL = '''
points = points.to(device)
xyz, norm = points.narrow(-1, 0, 3), points.narrow(-1, 3, 3)
l1_xyz, l1_points = sa1(xyz, norm)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
