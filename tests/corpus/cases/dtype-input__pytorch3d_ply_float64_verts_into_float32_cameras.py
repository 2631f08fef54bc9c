"""PyTorch3D: a mesh built from float64 numpy vertices is rendered with float32 cameras.

Source: https://github.com/facebookresearch/pytorch3d/issues/315
"How to render textured .ply file": the user built `verts = torch.from_numpy(np.array(mesh.v,
dtype='double'))[None]` (and double vertex colours), wrapped them in `Meshes(..., textures=
TexturesVertex(...))`, and `images = renderer(mesh)` raised "RuntimeError: expected scalar type
Double but found Float": `look_at_view_transform` and the cameras are float32, and the rasterizer's
world-to-view transform multiplies the float64 vertices by the float32 camera matrix. The vertices
(and colours) need to be float32. Stand-in: Meshes/TexturesVertex, FoV cameras with
`look_at_view_transform`, and the transform/projection step of MeshRasterizer plus a flat shader.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn

class TexturesVertex:
    def __init__(self, verts_features):
        self.verts_features = verts_features

class Meshes:
    def __init__(self, verts, faces, textures=None):
        self._verts, self._faces, self.textures = verts, faces, textures
    def verts_padded(self): return self._verts
    def faces_padded(self): return self._faces

def look_at_view_transform(dist=1.0, elev=0.0, azim=0.0):
    elev, azim = math.radians(elev), math.radians(azim)
    cam = torch.tensor([[dist * math.cos(elev) * math.sin(azim), dist * math.sin(elev),
                         dist * math.cos(elev) * math.cos(azim)]], dtype=torch.float32)
    z = torch.nn.functional.normalize(-cam, dim=-1)
    x = torch.nn.functional.normalize(torch.cross(torch.tensor([[0.0, 1.0, 0.0]]), z, dim=-1), dim=-1)
    y = torch.cross(z, x, dim=-1)
    R = torch.stack([x, y, z], dim=-1)
    T = -torch.bmm(R.transpose(1, 2), cam.unsqueeze(-1)).squeeze(-1)
    return R, T

class FoVPerspectiveCameras:
    def __init__(self, device="cpu", R=None, T=None, znear=1.0, zfar=100.0, fov=60.0):
        self.R, self.T = R.to(device), T.to(device)
        s = 1.0 / math.tan(math.radians(fov) / 2)
        self.K = torch.tensor([[[s, 0, 0, 0], [0, s, 0, 0], [0, 0, zfar / (zfar - znear), 1],
                                [0, 0, -zfar * znear / (zfar - znear), 0]]], device=device)

    def get_world_to_view_transform(self):
        M = torch.zeros(1, 4, 4)
        M[:, :3, :3] = self.R
        M[:, 3, :3] = self.T
        M[:, 3, 3] = 1.0
        return M

    def transform_points(self, points):
        ones = torch.ones(points.shape[:-1] + (1,), dtype=points.dtype)
        points_h = torch.cat([points, ones], dim=-1)
        M = torch.bmm(self.get_world_to_view_transform(), self.K)
        out = torch.bmm(points_h, M)                        # _broadcast_bmm(points_batch, composed_matrix)
        return out[..., :3] / out[..., 3:]

class MeshRasterizer(nn.Module):
    def __init__(self, cameras=None):
        super().__init__()
        self.cameras = cameras
    def forward(self, meshes_world):
        return self.cameras.transform_points(meshes_world.verts_padded())

class SoftPhongShader(nn.Module):
    def forward(self, verts_ndc, meshes):
        colors = meshes.textures.verts_features
        depth_w = torch.softmax(-verts_ndc[..., 2], dim=-1).unsqueeze(-1)
        return (colors * depth_w).sum(1)

class MeshRenderer(nn.Module):
    def __init__(self, rasterizer, shader):
        super().__init__()
        self.rasterizer, self.shader = rasterizer, shader
    def forward(self, meshes_world):
        fragments = self.rasterizer(meshes_world)
        return self.shader(fragments, meshes_world)

class PlyMesh:                                              # the user's loaded .ply (psbody-style)
    def __init__(self, n=500):
        rng = np.random.default_rng(0)
        self.v = rng.standard_normal((n, 3)) * 0.5
        self.f = rng.integers(0, n, (2 * n, 3)).astype(np.uint32)
        self.vc = rng.random((n, 3))

device = torch.device("cpu")
ply = PlyMesh()
verts = torch.from_numpy(np.array(ply.v, dtype='double'))[None]
faces = torch.from_numpy(np.array(ply.f, dtype='int64'))[None]
features = torch.from_numpy(np.array(ply.vc, dtype='double'))[None]
tex = TexturesVertex(verts_features=features)
mesh = Meshes(verts=verts, faces=faces, textures=tex)

R, T = look_at_view_transform(2.7, 0, 180)
cameras = FoVPerspectiveCameras(device=device, R=R, T=T)
renderer = MeshRenderer(rasterizer=MeshRasterizer(cameras=cameras), shader=SoftPhongShader())
'''
CELL = '''
images = renderer(mesh)
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "expected scalar type Float but found Double",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["mesh"]
FIX = "namespace"
REFERENCE_FIX = '''
mesh = Meshes(verts=verts.float(), faces=faces, textures=TexturesVertex(verts_features=features.float()))
'''
REFERENCE_EDIT = None
CLEAN = False
