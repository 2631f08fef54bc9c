"""LiftedGAN's PyTorch3D renderer: the camera rotation comes from `look_at_rotation` with its default `device="cpu"`.

Source: https://github.com/seasonSH/LiftedGAN/pull/1
"fixed Renderer not setting device on look_at_rotation": "This can cause a 'runtimeError: Expected
all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!' when running
on cuda because look_at_rotation defaults to cpu". `Renderer.__init__` builds
`R = look_at_rotation(((0,0,0),), at=((0, 0, 1),), up=((0, -1, 0),))` and hands it to
`OpenGLPerspectiveCameras(device=self.device, fov=self.fov, R=R)`; the PyTorch3D of the time kept a
tensor argument where it was, so rasterizing CUDA vertices multiplied them by a CPU rotation. The
PR passes `device=self.device` to `look_at_rotation`. Stand-in: `look_at_rotation`, the cameras'
world-to-view step and a depth-only MeshRasterizer, the Renderer reduced to its camera set-up and
`render_torch`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

def look_at_rotation(camera_position, at=((0, 0, 0),), up=((0, 1, 0),), device="cpu"):
    camera_position = torch.tensor(camera_position, dtype=torch.float32, device=device)
    at = torch.tensor(at, dtype=torch.float32, device=device)
    up = torch.tensor(up, dtype=torch.float32, device=device)
    z_axis = F.normalize(at - camera_position, eps=1e-5)
    x_axis = F.normalize(torch.cross(up, z_axis, dim=1), eps=1e-5)
    y_axis = F.normalize(torch.cross(z_axis, x_axis, dim=1), eps=1e-5)
    R = torch.cat((x_axis.unsqueeze(1), y_axis.unsqueeze(1), z_axis.unsqueeze(1)), dim=1)
    return R.transpose(1, 2)

class OpenGLPerspectiveCameras:
    def __init__(self, znear=1.0, zfar=100.0, aspect_ratio=1.0, fov=60.0, R=None, T=None, device="cpu"):
        self.device = device
        self.R = R                                          # kept as given (PyTorch3D 0.2)
        self.T = T if T is not None else torch.zeros(1, 3, device=device)
        self.fov = fov

    def get_world_to_view_transform(self):
        R, T = self.R, self.T
        return lambda points: torch.bmm(points, R.expand(points.shape[0], 3, 3)) + T.unsqueeze(1)

class Meshes:
    def __init__(self, verts, faces, textures=None):
        self._verts, self._faces = verts, faces
    def verts_padded(self): return self._verts

class MeshRasterizer(nn.Module):
    def __init__(self, cameras=None, raster_settings=None):
        super().__init__()
        self.cameras = cameras
    def forward(self, meshes_world):
        verts_view = self.cameras.get_world_to_view_transform()(meshes_world.verts_padded())
        s = 1.0 / math.tan(math.radians(self.cameras.fov) / 2)
        xy = verts_view.narrow(-1, 0, 2) * s / verts_view.narrow(-1, 2, 1)
        return torch.cat([xy, verts_view.narrow(-1, 2, 1)], -1)      # stands for the fragments' zbuf

class Renderer(nn.Module):
    def __init__(self, **cfgs):
        super().__init__()
        self.device = cfgs.get('device', 'cuda')
        self.image_size = cfgs.get('image_size', 64)
        self.fov = cfgs.get('fov', 10)
        # Initialize an OpenGL perspective camera.
        R = look_at_rotation(((0, 0, 0),), at=((0, 0, 1),), up=((0, -1, 0),))
        cameras = OpenGLPerspectiveCameras(device=self.device, fov=self.fov, R=R)
        self.rasterizer_torch = MeshRasterizer(cameras=cameras, raster_settings=None)

    def render_torch(self, verts, faces, rgb):
        mesh = Meshes(verts=verts, faces=faces)
        fragments = self.rasterizer_torch(mesh)
        return fragments

renderer = Renderer(device='cuda:0', image_size=64, fov=10)
b, h, w = 2, 16, 16
canon_depth = 1.0 + 0.1 * torch.rand(b, h, w, device='cuda:0')
ys, xs = torch.meshgrid(torch.linspace(-1, 1, h, device='cuda:0'), torch.linspace(-1, 1, w, device='cuda:0'), indexing='ij')
verts = torch.stack([xs.expand(b, h, w) * canon_depth, ys.expand(b, h, w) * canon_depth, canon_depth], -1).reshape(b, -1, 3)
faces = torch.randint(0, h * w, (b, 2 * (h - 1) * (w - 1), 3), device='cuda:0')
rgb = torch.rand(b, h * w, 3, device='cuda:0')
'''
CELL = '''
out = renderer.render_torch(verts, faces, rgb)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["renderer.rasterizer_torch.cameras"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("R = look_at_rotation(((0, 0, 0),), at=((0, 0, 1),), up=((0, -1, 0),))",
                  "R = look_at_rotation(((0, 0, 0),), at=((0, 0, 1),), up=((0, -1, 0),), device=self.device)")
CLEAN = False
