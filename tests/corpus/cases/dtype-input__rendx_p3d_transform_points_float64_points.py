"""PyTorch3D `Transform3d.transform_points` called with float64 points on a float32 camera transform.

Source: https://github.com/facebookresearch/pytorch3d/pull/1272
"[transforms] - fixing runtime error": `transform_points` raised "Expected object of scalar type
Double but got scalar type Float for argument #2 'mat2'" when the `points` passed in are float64
(the PR's example: a float32 `composed_matrix` on cuda:0 and `points_batch` with
dtype=torch.float64), from `_broadcast_bmm(points_batch, composed_matrix)`. The maintainer declined
the library change: "PyTorch3D assumes floating-point data is float32 in many places"; the points
must be float32. Stand-ins: Transform3d with `_broadcast_bmm`, the cameras' world-to-view
transform; the points come from numpy (float64) as in the example; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch

def _broadcast_bmm(a, b):
    if a.dim() == 2:
        a = a[None]
    if len(a) != len(b):
        if len(a) == 1:
            a = a.expand(len(b), -1, -1)
        if len(b) == 1:
            b = b.expand(len(a), -1, -1)
    return a.bmm(b)

class Transform3d:
    def __init__(self, dtype=torch.float32, device="cpu", matrix=None):
        self._matrix = torch.eye(4, dtype=dtype, device=device).view(1, 4, 4) if matrix is None else matrix
    def get_matrix(self):
        return self._matrix
    def transform_points(self, points, eps=None):
        points_batch = points.clone()
        if points_batch.dim() == 2:
            points_batch = points_batch[None]
        N, P, _3 = points_batch.shape
        ones = torch.ones(N, P, 1, dtype=points.dtype, device=points.device)
        points_batch = torch.cat([points_batch, ones], dim=2)
        composed_matrix = self.get_matrix()
        points_out = _broadcast_bmm(points_batch, composed_matrix)
        denom = points_out[..., 3:]
        return points_out[..., :3] / denom

class FoVPerspectiveCameras:
    def __init__(self, R, T, device="cpu"):
        self.R, self.T = R.to(device), T.to(device)
    def get_world_to_view_transform(self):
        M = torch.eye(4).repeat(self.R.shape[0], 1, 1)
        M[:, :3, :3] = self.R
        M[:, 3, :3] = self.T
        return Transform3d(matrix=M)

R = torch.tensor([[[-0.9822, 0.1519, -0.1101], [0.0, 0.5869, 0.8097], [0.1876, 0.7953, -0.5765]]])
T = torch.tensor([[0.0114, -0.0395, 2.1652]])
cameras = FoVPerspectiveCameras(R=R, T=T, device="cpu")     # cuda:0 in the PR
obj_points = np.array([[0.1869, -0.4288, 0.2860], [-0.4500, 0.5648, -0.4203], [0.4349, 0.5659, 0.4643],
                       [0.2969, -0.8058, 0.0736], [-0.3647, 0.5666, 0.1069], [-0.4517, 0.5652, -0.2243]])
points = torch.from_numpy(obj_points)[None]
'''
CELL = '''
points_view = cameras.get_world_to_view_transform().transform_points(points)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["points"]
FIX = "namespace"
REFERENCE_FIX = '''
points = points.float()
'''
REFERENCE_EDIT = None
CLEAN = False
