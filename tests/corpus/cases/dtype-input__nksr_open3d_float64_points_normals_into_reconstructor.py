"""NKSR surface reconstruction: Open3D point/normal arrays become float64 tensors and hit the float32 encoder.

Source: https://github.com/nv-tlabs/NKSR/issues/61
The reporter built `input_xyz = torch.from_numpy(np.asarray(pcd.points)).to(device)` (and the normals
and colors the same way) from an Open3D point cloud, whose arrays are float64, then called
`reconstructor.reconstruct(input_xyz, input_normal)`; the encoder's
`self.fc_pos(torch.cat([pts_xyz, pts_feature], dim=1))` raised "mat1 and mat2 must have the same
dtype". The NKSR reconstructor/encoder are small stand-ins (no sparse voxel hierarchy); the point
cloud is random. Run on the CPU (a dtype bug; the report ran on cuda).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn
from types import SimpleNamespace

class PointEncoder(nn.Module):
    def __init__(self, c_dim=16, dim=3):
        super().__init__()
        self.fc_pos = nn.Linear(dim + 3, 2 * c_dim)
        self.fc_c = nn.Linear(2 * c_dim, c_dim)

    def forward(self, pts_xyz, pts_feature, svh, depth):
        net = self.fc_pos(torch.cat([pts_xyz, pts_feature], dim=1))
        return self.fc_c(torch.relu(net))

class Reconstructor:
    def __init__(self, device):
        self.device = device
        self.network = SimpleNamespace(encoder=PointEncoder().to(device), decoder=nn.Linear(16, 1).to(device))

    def reconstruct(self, xyz, normal, detail_level=None):
        center = xyz.mean(0, keepdim=True)
        scale = (xyz - center).abs().max()
        xyz = (xyz - center) / scale                         # "Input scale factor"
        feat = self.network.encoder(xyz, normal, None, 0)
        return SimpleNamespace(sdf=self.network.decoder(feat))

device = torch.device("cpu")
pcd = SimpleNamespace(points=np.random.default_rng(0).random((500, 3)),          # open3d Vector3dVector
                      colors=np.random.default_rng(1).random((500, 3)),
                      normals=np.random.default_rng(2).standard_normal((500, 3)))
input_xyz = torch.from_numpy(np.asarray(pcd.points)).to(device)
input_color = torch.from_numpy(np.asarray(pcd.colors)).to(device)
input_normal = torch.from_numpy(np.asarray(pcd.normals)).to(device)
reconstructor = Reconstructor(device)
'''
CELL = '''
field = reconstructor.reconstruct(input_xyz, input_normal)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["input_xyz", "input_normal"]
FIX = "namespace"
REFERENCE_FIX = '''
input_xyz = input_xyz.float()
input_normal = input_normal.float()
'''
REFERENCE_EDIT = None
CLEAN = False
