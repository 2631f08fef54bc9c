"""PyTorch3D: `PerspectiveCameras(K=...)` built from a float64 intrinsics matrix fails in the rasterizer while FoVPerspectiveCameras works.

Source: https://github.com/facebookresearch/pytorch3d/issues/1023
"RuntimeError: expected scalar type Double but found Float with PerspectiveCameras but not
FoVPerspectiveCameras": rendering a YCB-Video mesh with R, T from `look_at_view_transform` works with
FoVPerspectiveCameras, fails with PerspectiveCameras. "The one additional variable that's unique is
camera_matrix. But this is a double type, and thus not likely to be causing the error" -- it is the
cause: the cameras keep a tensor K as given, so the projection transform is float64 while the
world-to-view transform and the vertices are float32. Casting the intrinsics to float32 fixes it.
Stand-ins: Transform3d (matrix composed with bmm), the two camera classes, a rasterizer reduced to
the projection of the vertices; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

class Transform3d:
    def __init__(self, matrix):
        self._matrix = matrix
    def compose(self, other):
        return Transform3d(torch.bmm(self._matrix, other._matrix))
    def transform_points(self, points):
        pts = torch.cat([points, torch.ones_like(points[..., :1])], -1)
        out = torch.bmm(pts, self._matrix)
        return out[..., :3] / out[..., 3:]

def look_at_view_transform(dist, elev, azim):
    e, a = math.radians(elev), math.radians(azim)
    R = torch.tensor([[[math.cos(a), 0.0, -math.sin(a)],
                       [math.sin(e) * math.sin(a), math.cos(e), math.sin(e) * math.cos(a)],
                       [math.cos(e) * math.sin(a), -math.sin(e), math.cos(e) * math.cos(a)]]])
    T = torch.tensor([[0.0, 0.0, float(dist)]])
    return R, T

class _CamerasBase:
    def __init__(self, R, T, device="cpu"):
        self.R, self.T, self.device = R.to(device), T.to(device), device
    def get_world_to_view_transform(self):
        M = torch.eye(4).repeat(self.R.shape[0], 1, 1)
        M[:, :3, :3] = self.R
        M[:, 3, :3] = self.T
        return Transform3d(M)
    def transform_points(self, points):
        world_to_ndc = self.get_world_to_view_transform().compose(self.get_projection_transform())
        return world_to_ndc.transform_points(points)

class FoVPerspectiveCameras(_CamerasBase):
    def __init__(self, R, T, fov=60.0, device="cpu"):
        super().__init__(R, T, device)
        self.fov = fov
    def get_projection_transform(self):
        s = 1.0 / math.tan(math.radians(self.fov) / 2)
        K = torch.zeros(self.R.shape[0], 4, 4)
        K[:, 0, 0], K[:, 1, 1], K[:, 2, 2], K[:, 3, 2], K[:, 2, 3] = s, s, 1.0, -0.1, 1.0
        return Transform3d(K)

class PerspectiveCameras(_CamerasBase):
    def __init__(self, R, T, K=None, in_ndc=False, image_size=None, device="cpu"):
        super().__init__(R, T, device)
        self.K = K.to(device)            # a tensor argument keeps its dtype
        self.image_size = image_size
    def get_projection_transform(self):
        return Transform3d(self.K.transpose(1, 2))

class Meshes:
    def __init__(self, verts, faces):
        self._verts, self._faces = verts, faces
    def verts_padded(self): return self._verts

class MeshRasterizer(nn.Module):
    def __init__(self, cameras=None):
        super().__init__()
        self.cameras = cameras
    def forward(self, meshes_world, **kwargs):
        cameras = kwargs.get("cameras", self.cameras)
        verts_ndc = cameras.transform_points(meshes_world.verts_padded())
        return verts_ndc[..., 2:]                         # stands for fragments.zbuf

device = torch.device("cpu")      # "cuda:1" in the report
verts = torch.rand(1, 200, 3) - 0.5
faces = torch.randint(0, 200, (1, 300, 3))
mesh = Meshes(verts=verts, faces=faces)
R, T = look_at_view_transform(0.6, 10, 30)

fx, fy, cx, cy = 1066.778, 1067.487, 312.9869, 241.3109
camera_matrix = torch.from_numpy(np.array([[[fx, 0, cx, 0], [0, fy, cy, 0], [0, 0, 0, 1], [0, 0, 1, 0]]]))
cameras = PerspectiveCameras(R=R, T=T, K=camera_matrix, image_size=((480, 640),), device=device)
rasterizer = MeshRasterizer(cameras=cameras)
'''
CELL = '''
zbuf = rasterizer(mesh)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["cameras.K"]
FIX = "namespace"
REFERENCE_FIX = '''
cameras.K = cameras.K.float()
'''
REFERENCE_EDIT = None
CLEAN = False
