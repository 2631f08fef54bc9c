"""Look-alike: the PyTorch3D textured-mesh tutorial passes CPU `R, T` from `look_at_view_transform` to cameras built on the GPU.

Source: https://github.com/facebookresearch/pytorch3d/blob/main/docs/tutorials/render_textured_meshes.ipynb
`R, T = look_at_view_transform(2.7, 0, 180)` returns CPU tensors (no device is given), and they go
straight into `FoVPerspectiveCameras(device=device, R=R, T=T)` beside a mesh loaded on cuda:0;
`PointLights(device=device, location=[[0.0, 0.0, -3.0]])` gets a plain list. It looks like a
mismatch, but the cameras and lights are TensorProperties that convert and move every argument to
`device` in their constructor, so `renderer(mesh)` runs. Stand-ins: TensorProperties, the camera and
light classes, and a renderer reduced to projecting the vertices and Lambert-shading them.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class TensorProperties(nn.Module):
    def __init__(self, dtype=torch.float32, device="cpu", **kwargs):
        super().__init__()
        self.device = torch.device(device)
        for k, v in kwargs.items():
            if v is None:
                continue
            if not torch.is_tensor(v):
                v = torch.tensor(v, dtype=dtype)
            setattr(self, k, v.to(self.device))

def look_at_view_transform(dist=1.0, elev=0.0, azim=0.0, device="cpu"):
    e, a = math.radians(elev), math.radians(azim)
    R = torch.tensor([[[math.cos(a), 0.0, -math.sin(a)],
                       [math.sin(e) * math.sin(a), math.cos(e), math.sin(e) * math.cos(a)],
                       [math.cos(e) * math.sin(a), -math.sin(e), math.cos(e) * math.cos(a)]]], device=device)
    T = torch.tensor([[0.0, 0.0, float(dist)]], device=device)
    return R, T

class FoVPerspectiveCameras(TensorProperties):
    def __init__(self, R, T, fov=60.0, device="cpu"):
        super().__init__(device=device, R=R, T=T, fov=[fov])
    def transform_points(self, verts):
        view = verts @ self.R[0] + self.T
        s = 1.0 / torch.tan(self.fov * math.pi / 360.0)
        return torch.cat([view[..., :2] * s / view[..., 2:], view[..., 2:]], -1)

class PointLights(TensorProperties):
    def __init__(self, location=((0.0, 1.0, 0.0),), device="cpu"):
        super().__init__(device=device, location=location)

class MeshRenderer(nn.Module):
    def __init__(self, cameras, lights):
        super().__init__()
        self.cameras, self.lights = cameras, lights
    def forward(self, verts, verts_rgb):
        ndc = self.cameras.transform_points(verts)
        to_light = self.lights.location - verts
        lambert = (to_light / to_light.norm(dim=-1, keepdim=True))[..., 2:].clamp(min=0)
        return ndc, verts_rgb * lambert

device = torch.device("cuda:0")
verts = torch.randn(1, 300, 3, device=device) * 0.3
verts_rgb = torch.rand(1, 300, 3, device=device)
R, T = look_at_view_transform(2.7, 0, 180)
cameras = FoVPerspectiveCameras(device=device, R=R, T=T)
lights = PointLights(device=device, location=[[0.0, 0.0, -3.0]])
renderer = MeshRenderer(cameras=cameras, lights=lights)
'''
CELL = '''
with torch.no_grad():
    ndc, images = renderer(verts, verts_rgb)
print(R.device, cameras.R.device, images.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
