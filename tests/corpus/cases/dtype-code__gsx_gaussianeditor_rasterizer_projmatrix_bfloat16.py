"""GaussianEditor: the camera's `full_proj_transform` comes out BFloat16 under mixed precision and the float-only Gaussian rasterizer rejects it.

Source: https://github.com/buaacyw/GaussianEditor/issues/78
"expect scalar Float type but input BFloat16". The commenter printed the dtypes of the rasterizer's
arguments: "`raster_settings.projmatrix`'s type is BFloat16", and fixed it in
`diff_gaussian_rasterization/__init__.py` (the `args` tuple of `_RasterizeGaussians.forward`, "between 65
row and 85 row") with `raster_settings.projmatrix.to(torch.float32)`. The report does not say where the
BFloat16 came from; GaussianEditor's `Simple_Camera` computes `full_proj_transform =
world_view_transform.unsqueeze(0).bmm(projection_matrix.unsqueeze(0))`, a matmul that autocast runs in low
precision when the camera is built inside a mixed-precision step (its configs train with `precision:
16-mixed`, and another camera class in the same file appends `.float()` to that product); here the views
are built under a bf16 autocast.
Stand-ins (CPU, dtype bug only; the `.to("cuda:0")` half of the fix is left out): `Simple_Camera` with
numpy world/projection matrices, `GaussianRasterizationSettings`, `GaussianRasterizer`,
`_RasterizeGaussians` and `_C.rasterize_gaussians`, a compiled kernel that autocast does not reach, reduced
to projecting the means with `projmatrix` and splatting their colours.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
from types import SimpleNamespace
from typing import NamedTuple
import numpy as np
import torch
import torch.nn as nn

def getWorld2View2(R, t, translate=np.array([.0, .0, .0]), scale=1.0):
    Rt = np.zeros((4, 4))
    Rt[:3, :3] = R.transpose()
    Rt[:3, 3] = t
    Rt[3, 3] = 1.0
    C2W = np.linalg.inv(Rt)
    C2W[:3, 3] = (C2W[:3, 3] + translate) * scale
    return np.float32(np.linalg.inv(C2W))

def getProjectionMatrix(znear, zfar, fovX, fovY):
    tanHalfFovY, tanHalfFovX = math.tan(fovY / 2), math.tan(fovX / 2)
    top, right = tanHalfFovY * znear, tanHalfFovX * znear
    P = torch.zeros(4, 4)
    P[0, 0] = 2.0 * znear / (2 * right)
    P[1, 1] = 2.0 * znear / (2 * top)
    P[3, 2] = 1.0
    P[2, 2] = zfar / (zfar - znear)
    P[2, 3] = -(zfar * znear) / (zfar - znear)
    return P

class Simple_Camera(nn.Module):
    def __init__(self, colmap_id, R, T, FoVx, FoVy, h, w, image_name, uid,
                 trans=np.array([0.0, 0.0, 0.0]), scale=1.0, data_device="cpu"):
        super().__init__()
        self.uid, self.colmap_id, self.R, self.T = uid, colmap_id, R, T
        self.FoVx, self.FoVy, self.image_name = FoVx, FoVy, image_name
        self.image_width, self.image_height = w, h
        self.zfar, self.znear = 100.0, 0.01
        self.trans, self.scale = trans, scale
        self.world_view_transform = torch.tensor(getWorld2View2(R, T, trans, scale)).transpose(0, 1)
        self.projection_matrix = getProjectionMatrix(znear=self.znear, zfar=self.zfar, fovX=self.FoVx, fovY=self.FoVy).transpose(0, 1)
        self.full_proj_transform = (self.world_view_transform.unsqueeze(0).bmm(self.projection_matrix.unsqueeze(0))).squeeze(0)
        self.camera_center = self.world_view_transform.inverse()[3, :3]

class GaussianRasterizationSettings(NamedTuple):
    image_height: int
    image_width: int
    tanfovx: float
    tanfovy: float
    bg: torch.Tensor
    scale_modifier: float
    viewmatrix: torch.Tensor
    projmatrix: torch.Tensor
    sh_degree: int
    campos: torch.Tensor
    prefiltered: bool
    debug: bool

def _rasterize_gaussians_kernel(bg, means3D, colors, opacities, scales, rotations, scale_modifier, cov3D,
                                viewmatrix, projmatrix, tanfovx, tanfovy, image_height, image_width,
                                sh, sh_degree, campos, prefiltered, debug):
    # compiled CUDA code: reads float buffers, autocast does not apply to it
    with torch.autocast("cpu", enabled=False):
        p_hom = torch.cat([means3D, torch.ones_like(means3D[:, :1])], -1) @ projmatrix
        p_proj = p_hom[:, :2] / (p_hom[:, 3:4] + 1e-7)
        ys = torch.linspace(-1, 1, image_height)
        xs = torch.linspace(-1, 1, image_width)
        pix = torch.stack(torch.meshgrid(xs, ys, indexing="xy"), -1).view(-1, 1, 2)
        w = opacities.view(1, -1) * torch.exp(-((pix - p_proj.view(1, -1, 2)) ** 2).sum(-1) / (scales.mean(-1).view(1, -1) * scale_modifier * 0.1 + 1e-4))
        alpha = w.sum(-1, keepdim=True).clamp(max=1.0)
        img = (w @ colors) / (w.sum(-1, keepdim=True) + 1e-6) * alpha + (1 - alpha) * bg
        return img.t().reshape(3, image_height, image_width), torch.ones(means3D.shape[0], dtype=torch.int32)

_C = SimpleNamespace(rasterize_gaussians=_rasterize_gaussians_kernel)

class _RasterizeGaussians(torch.autograd.Function):
    @staticmethod
    def forward(ctx, means3D, means2D, sh, colors_precomp, opacities, scales, rotations, cov3Ds_precomp, raster_settings):
        args = (
            raster_settings.bg,
            means3D,
            colors_precomp,
            opacities,
            scales,
            rotations,
            raster_settings.scale_modifier,
            cov3Ds_precomp,
            raster_settings.viewmatrix,
            raster_settings.projmatrix,
            raster_settings.tanfovx,
            raster_settings.tanfovy,
            raster_settings.image_height,
            raster_settings.image_width,
            sh,
            raster_settings.sh_degree,
            raster_settings.campos,
            raster_settings.prefiltered,
            raster_settings.debug,
        )
        color, radii = _C.rasterize_gaussians(*args)
        return color, radii

def rasterize_gaussians(means3D, means2D, sh, colors_precomp, opacities, scales, rotations, cov3Ds_precomp, raster_settings):
    return _RasterizeGaussians.apply(means3D, means2D, sh, colors_precomp, opacities, scales, rotations, cov3Ds_precomp, raster_settings)

class GaussianRasterizer(nn.Module):
    def __init__(self, raster_settings):
        super().__init__()
        self.raster_settings = raster_settings
    def forward(self, means3D, means2D, opacities, shs=None, colors_precomp=None, scales=None, rotations=None, cov3D_precomp=None):
        empty = torch.Tensor([])
        return rasterize_gaussians(means3D, means2D, empty if shs is None else shs, colors_precomp, opacities,
                                   scales, rotations, empty if cov3D_precomp is None else cov3D_precomp, self.raster_settings)

class GaussianModel:
    def __init__(self, n=500):
        g = torch.Generator().manual_seed(0)
        self.get_xyz = torch.randn(n, 3, generator=g) * 0.5
        self.get_opacity = torch.rand(n, 1, generator=g)
        self.get_scaling = torch.rand(n, 3, generator=g) * 0.05
        self.get_rotation = torch.nn.functional.normalize(torch.randn(n, 4, generator=g), dim=-1)
        self.colors = torch.rand(n, 3, generator=g)

def render(viewpoint_camera, pc, bg_color, scaling_modifier=1.0):
    screenspace_points = torch.zeros_like(pc.get_xyz)
    tanfovx = math.tan(viewpoint_camera.FoVx * 0.5)
    tanfovy = math.tan(viewpoint_camera.FoVy * 0.5)
    raster_settings = GaussianRasterizationSettings(
        image_height=int(viewpoint_camera.image_height),
        image_width=int(viewpoint_camera.image_width),
        tanfovx=tanfovx,
        tanfovy=tanfovy,
        bg=bg_color,
        scale_modifier=scaling_modifier,
        viewmatrix=viewpoint_camera.world_view_transform,
        projmatrix=viewpoint_camera.full_proj_transform,
        sh_degree=0,
        campos=viewpoint_camera.camera_center,
        prefiltered=False,
        debug=False,
    )
    rasterizer = GaussianRasterizer(raster_settings=raster_settings)
    rendered_image, radii = rasterizer(means3D=pc.get_xyz, means2D=screenspace_points, colors_precomp=pc.colors,
                                       opacities=pc.get_opacity, scales=pc.get_scaling, rotations=pc.get_rotation)
    return {"render": rendered_image, "viewspace_points": screenspace_points, "radii": radii}

gaussian = GaussianModel()
background = torch.tensor([1.0, 1.0, 1.0])
with torch.autocast("cpu", dtype=torch.bfloat16):       # the bf16 mixed-precision step that builds the views
    cams = [Simple_Camera(0, np.eye(3), np.array([0.0, 0.0, 4.0]), FoVx=0.9, FoVy=0.9, h=32, w=32,
                          image_name=f"view_{i:03d}", uid=i) for i in range(2)]
'''
CELL = '''
with torch.no_grad():
    out = render(cams[0], gaussian, background)
print(out["render"].shape)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type Float but found BFloat16")
CULPRITS = ["_RasterizeGaussians"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            raster_settings.projmatrix,\n",
                  "            raster_settings.projmatrix.to(torch.float32),\n")
CLEAN = False
