"""DGE (Gaussian-splatting editing): the camera's `full_proj_transform` arrives in bfloat16 and meets the float32 Gaussians in the rasterizer.

Source: https://github.com/silent-chen/DGE/issues/11
"expected scalar type Float but found BFloat16" during DGE training, raised from the 3DGS
rasterizer. The fix given in the thread (and confirmed by another user): set
`projmatrix=viewpoint_camera.full_proj_transform.float()` in
`gaussiansplatting/gaussian_renderer/__init__.py` (line 83): the cameras are built inside DGE's
bf16 autocast region, so the `bmm` that makes `full_proj_transform` returns bfloat16 while the
view matrix and the Gaussians' means stay float32.
Stand-ins: a Camera whose matrices follow the pipeline's dtype, a GaussianModel, and
`GaussianRasterizationSettings` / `GaussianRasterizer` reduced to projecting the means with
`projmatrix` (the CUDA kernel reads all of them as float).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
from types import SimpleNamespace
import torch
from torch import nn

class Camera:
    def __init__(self, c2w, fovx, fovy, width, height):
        w2c = torch.linalg.inv(c2w)
        self.world_view_transform = w2c.transpose(0, 1)
        tanx, tany = math.tan(fovx / 2), math.tan(fovy / 2)
        P = torch.zeros(4, 4)
        P[0, 0], P[1, 1], P[3, 2], P[2, 2], P[2, 3] = 1 / tanx, 1 / tany, 1.0, 1.0, -0.01
        self.projection_matrix = P.transpose(0, 1)
        self.full_proj_transform = (self.world_view_transform.unsqueeze(0).bmm(
            self.projection_matrix.unsqueeze(0))).squeeze(0)
        self.camera_center = self.world_view_transform.inverse()[3, :3]
        self.FoVx, self.FoVy, self.image_width, self.image_height = fovx, fovy, width, height

class GaussianModel(nn.Module):
    def __init__(self, n=500):
        super().__init__()
        self._xyz = nn.Parameter(torch.randn(n, 3))
        self._opacity = nn.Parameter(torch.zeros(n, 1))
        self._features_dc = nn.Parameter(torch.rand(n, 3))
    @property
    def get_xyz(self): return self._xyz
    @property
    def get_opacity(self): return torch.sigmoid(self._opacity)

GaussianRasterizationSettings = SimpleNamespace

class GaussianRasterizer(nn.Module):
    def __init__(self, raster_settings):
        super().__init__()
        self.raster_settings = raster_settings
    def forward(self, means3D, colors_precomp, opacities):
        s = self.raster_settings
        p_hom = torch.cat([means3D, torch.ones_like(means3D[:, :1])], 1) @ s.projmatrix
        p_view = torch.cat([means3D, torch.ones_like(means3D[:, :1])], 1) @ s.viewmatrix
        xy = p_hom[:, :2] / (p_hom[:, 3:] + 1e-7)
        w = (opacities * (p_view[:, 2:3] > 0.2)).squeeze(1)
        img = torch.zeros(3, s.image_height * s.image_width)
        px = ((xy.clamp(-1, 1) + 1) / 2 * torch.tensor([s.image_width - 1, s.image_height - 1])).long()
        img.index_add_(1, px[:, 1] * s.image_width + px[:, 0], (colors_precomp * w[:, None]).t())
        return img.view(3, s.image_height, s.image_width) + s.bg[:, None, None]

def render(viewpoint_camera, pc, pipe, bg_color, scaling_modifier=1.0):
    tanfovx = math.tan(viewpoint_camera.FoVx * 0.5)
    tanfovy = math.tan(viewpoint_camera.FoVy * 0.5)
    raster_settings = GaussianRasterizationSettings(
        image_height=int(viewpoint_camera.image_height),
        image_width=int(viewpoint_camera.image_width),
        tanfovx=tanfovx, tanfovy=tanfovy, bg=bg_color,
        scale_modifier=scaling_modifier,
        viewmatrix=viewpoint_camera.world_view_transform,
        projmatrix=viewpoint_camera.full_proj_transform,
        campos=viewpoint_camera.camera_center, prefiltered=False, debug=pipe.debug)
    rasterizer = GaussianRasterizer(raster_settings=raster_settings)
    rendered_image = rasterizer(means3D=pc.get_xyz, colors_precomp=pc._features_dc, opacities=pc.get_opacity)
    return {"render": rendered_image}

gaussians = GaussianModel()
pipe = SimpleNamespace(debug=False)
bg_color = torch.zeros(3)
c2w = torch.eye(4)
c2w[2, 3] = -4.0
# DGE's editing step runs under bf16 autocast ("cuda" in the report): the bmm that builds
# full_proj_transform comes out bfloat16, the transposes stay float32
with torch.autocast("cpu", dtype=torch.bfloat16):
    viewpoint_camera = Camera(c2w, fovx=0.9, fovy=0.9, width=32, height=32)
'''
CELL = '''
render_pkg = render(viewpoint_camera, gaussians, pipe, bg_color)
image = render_pkg["render"]
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["viewpoint_camera.full_proj_transform"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("projmatrix=viewpoint_camera.full_proj_transform,",
                  "projmatrix=viewpoint_camera.full_proj_transform.float(),")
CLEAN = False
