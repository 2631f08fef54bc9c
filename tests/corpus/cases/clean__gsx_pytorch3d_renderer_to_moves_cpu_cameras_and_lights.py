"""Look-alike: PyTorch3D cameras and lights built without a device; `renderer.to(device)` moves them in place before rendering a CUDA mesh.

Source: https://github.com/facebookresearch/pytorch3d/blob/main/pytorch3d/renderer/mesh/rasterizer.py
(with pytorch3d/renderer/mesh/shader.py and renderer/utils.py). Cameras and lights are `TensorProperties`, not
`nn.Module`s, and default to `device="cpu"`; `MeshRasterizer.to` ("Manually move to device cameras as it is not
a subclass of nn.Module") and the shaders' `to` call `self.cameras.to(device)` / `self.lights.to(device)`, and
`TensorProperties.to` re-assigns every tensor attribute on the same object and returns `self`. So the user's
`cameras` and `lights`, created on the CPU, end up on cuda:0 once `renderer.to(device)` runs.
Stand-ins: `TensorProperties`, `FoVPerspectiveCameras` (R, T, perspective divide), `PointLights`, `Meshes`, and a
rasterizer/shader pair reduced to splatting projected vertices with Lambertian shading.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

class TensorProperties(nn.Module):
    def __init__(self, device="cpu", **kwargs):
        super().__init__()
        self.device = torch.device(device)
        for k, v in kwargs.items():
            setattr(self, k, torch.as_tensor(v, dtype=torch.float32).to(self.device))
    def to(self, device="cpu"):
        device_ = torch.device(device)
        for k in dir(self):
            if k.startswith("__") or k in ("T_destination", "dump_patches"):
                continue
            v = getattr(self, k)
            if k == "device":
                setattr(self, k, device_)
            if torch.is_tensor(v) and v.device != device_:
                setattr(self, k, v.to(device_))
        return self

class FoVPerspectiveCameras(TensorProperties):
    def __init__(self, R, T, fov=60.0, device="cpu"):
        super().__init__(device=device, R=R, T=T, fov=fov)
    def transform_points_screen(self, points, image_size):
        view = points @ self.R.squeeze(0) + self.T.view(1, 3)
        f = 1.0 / torch.tan(torch.deg2rad(self.fov) / 2)
        xy = view.narrow(-1, 0, 2) * f / view.narrow(-1, 2, 1).clamp(min=1e-3)
        return (xy + 1) * (image_size / 2), view.narrow(-1, 2, 1)

class PointLights(TensorProperties):
    def __init__(self, location=((0.0, 1.0, 0.0),), diffuse_color=((0.7, 0.7, 0.7),), device="cpu"):
        super().__init__(device=device, location=location, diffuse_color=diffuse_color)

class Meshes:
    def __init__(self, verts, faces, verts_rgb):
        self.verts, self.faces, self.verts_rgb = verts, faces, verts_rgb

class MeshRasterizer(nn.Module):
    def __init__(self, cameras=None, image_size=32):
        super().__init__()
        self.cameras, self.image_size = cameras, image_size
    def to(self, device):
        # Manually move to device cameras as it is not a subclass of nn.Module
        if self.cameras is not None:
            self.cameras = self.cameras.to(device)
        return self
    def forward(self, meshes):
        xy, z = self.cameras.transform_points_screen(meshes.verts, self.image_size)
        coords = torch.arange(self.image_size, device=meshes.verts.device, dtype=torch.float32) + 0.5
        pix = torch.stack(torch.meshgrid(coords, coords, indexing="xy"), -1).view(-1, 1, 2)
        w = torch.exp(-((pix - xy.unsqueeze(0)) ** 2).sum(-1)) / z.view(1, -1)
        return w / (w.sum(-1, keepdim=True) + 1e-6)

class SoftPhongShader(nn.Module):
    def __init__(self, cameras=None, lights=None):
        super().__init__()
        self.cameras, self.lights = cameras, lights
    def to(self, device):
        cameras = self.cameras
        if cameras is not None:
            self.cameras = cameras.to(device)
        self.lights = self.lights.to(device)
        return self
    def forward(self, fragments, meshes):
        normals = torch.nn.functional.normalize(meshes.verts, dim=-1)
        to_light = torch.nn.functional.normalize(self.lights.location - meshes.verts, dim=-1)
        shade = torch.relu((normals * to_light).sum(-1, keepdim=True)) * self.lights.diffuse_color
        colors = meshes.verts_rgb * (0.3 + shade)
        return fragments @ colors

class MeshRenderer(nn.Module):
    def __init__(self, rasterizer, shader):
        super().__init__()
        self.rasterizer, self.shader = rasterizer, shader
    def to(self, device):
        self.rasterizer.to(device)
        self.shader.to(device)
        return self
    def forward(self, meshes_world):
        fragments = self.rasterizer(meshes_world)
        return self.shader(fragments, meshes_world).view(self.rasterizer.image_size, self.rasterizer.image_size, 3)

device = torch.device("cuda:0")
g = torch.Generator().manual_seed(0)
verts = torch.nn.functional.normalize(torch.randn(200, 3, generator=g), dim=-1)
mesh = Meshes(verts=verts.to(device), faces=torch.zeros(1, 3, dtype=torch.int64, device=device),
              verts_rgb=torch.ones(200, 3, device=device))
R = torch.eye(3).unsqueeze(0)
T = torch.tensor([[0.0, 0.0, 3.0]])
cameras = FoVPerspectiveCameras(R=R, T=T)                      # no device: CPU
lights = PointLights(location=[[0.0, 0.0, -3.0]])              # no device: CPU
renderer = MeshRenderer(rasterizer=MeshRasterizer(cameras=cameras, image_size=32),
                        shader=SoftPhongShader(cameras=cameras, lights=lights))
'''
CELL = '''
renderer.to(device)
with torch.no_grad():
    images = renderer(mesh)
print(images.shape, images.device, cameras.R.device, lights.location.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
