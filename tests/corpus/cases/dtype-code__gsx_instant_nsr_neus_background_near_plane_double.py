"""instant-nsr-pl NeuS with a learned background: `forward_bg_` casts `t_max` to double, so nerfacc's ray marching gets a float64 near plane.

Source: https://github.com/bennyguo/instant-nsr-pl/issues/66
"RuntimeError: expected scalar type Float but found Double" while training NeuS. In
`NeuSModel.forward_bg_` the near plane of the background rays is built as
`torch.where(t_max.double() > 1e9, self.near_plane_bg, t_max.double())` and handed to nerfacc's
`ray_marching`, whose kernel works on float32 rays and occupancy grid. The maintainer answered "Fixed in
the latest commit" (d834831 "fix data type error": `torch.where(t_max > 1e9, self.near_plane_bg, t_max)`),
and the reporter confirmed it solved the error.
Stand-ins (CPU, dtype bug only): `ray_aabb_intersect`, an OccupancyGrid holding a float32 binary volume,
`ray_marching` that places samples from the near plane and keeps those whose grid cell is occupied
(queried with `grid_sample`, float32 like the CUDA kernel), and small geometry/texture MLPs.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace

def ray_aabb_intersect(rays_o, rays_d, aabb):
    inv_d = 1.0 / torch.where(rays_d.abs() < 1e-9, torch.full_like(rays_d, 1e-9), rays_d)
    t0 = (aabb[:3] - rays_o) * inv_d
    t1 = (aabb[3:] - rays_o) * inv_d
    t_min = torch.minimum(t0, t1).amax(-1)
    t_max = torch.maximum(t0, t1).amin(-1)
    hit = t_max > t_min.clamp(min=0)
    return torch.where(hit, t_min, torch.full_like(t_min, 1e10)), torch.where(hit, t_max, torch.full_like(t_max, 1e10))

class OccupancyGrid(nn.Module):
    def __init__(self, roi_aabb, resolution=32):
        super().__init__()
        self.register_buffer("roi_aabb", roi_aabb.clone())
        self.register_buffer("binary", torch.ones(resolution, resolution, resolution, dtype=torch.bool))

def ray_marching(rays_o, rays_d, scene_aabb=None, grid=None, sigma_fn=None, near_plane=None, far_plane=None,
                 render_step_size=1e-2, stratified=False, cone_angle=0.0, alpha_thre=0.0, max_samples=64):
    n_rays = rays_o.shape[0]
    t_min = near_plane if torch.is_tensor(near_plane) else torch.full((n_rays,), float(near_plane))
    steps = torch.arange(max_samples, dtype=rays_o.dtype) * render_step_size
    t_starts = (t_min[:, None] + steps[None]).clamp(max=far_plane)
    t_ends = (t_starts + render_step_size).clamp(max=far_plane)
    mid = (t_starts + t_ends) / 2
    positions = rays_o[:, None] + rays_d[:, None] * mid[..., None]
    keep = torch.ones_like(mid, dtype=torch.bool)
    if grid is not None:
        # UN_BOUNDED_SPHERE contraction, then the kernel's lookup in the float32 occupancy volume
        r = positions.norm(dim=-1, keepdim=True)
        contracted = torch.where(r > 1, (2 - 1 / r) * positions / r, positions) / 2
        occ = F.grid_sample(grid.binary.float()[None, None], contracted.view(1, -1, 1, 1, 3), align_corners=True)
        keep = occ.view(n_rays, max_samples) > 0.5
    ray_indices = torch.arange(n_rays)[:, None].expand(-1, max_samples)[keep]
    return ray_indices, t_starts[keep][:, None], t_ends[keep][:, None]

def render_weight_from_density(t_starts, t_ends, sigmas, ray_indices, n_rays):
    alphas = 1 - torch.exp(-sigmas * (t_ends - t_starts))
    trans = torch.ones_like(alphas)
    return (alphas * trans).view(-1)

def accumulate_along_rays(weights, ray_indices, values=None, n_rays=None):
    src = weights[:, None] if values is None else weights[:, None] * values
    out = torch.zeros(n_rays, src.shape[-1], dtype=src.dtype)
    return out.index_add_(0, ray_indices, src)

class VolumeDensity(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 17))
    def forward(self, x):
        h = self.net(x)
        return F.softplus(h[..., 0]), h[..., 1:]

class VolumeRadiance(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(19, 32), nn.ReLU(), nn.Linear(32, 3))
    def forward(self, feature, dirs):
        return torch.sigmoid(self.net(torch.cat([feature, dirs], -1)))

class NeuSModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.geometry_bg = VolumeDensity()
        self.texture_bg = VolumeRadiance()
        self.near_plane_bg, self.far_plane_bg = 0.1, 1e3
        self.cone_angle_bg = 10 ** (math.log10(self.far_plane_bg) / self.config.num_samples_per_ray_bg) - 1.0
        self.render_step_size_bg = 0.01
        self.register_buffer("scene_aabb", torch.as_tensor([-config.radius] * 3 + [config.radius] * 3, dtype=torch.float32))
        if self.config.grid_prune:
            self.occupancy_grid_bg = OccupancyGrid(roi_aabb=self.scene_aabb, resolution=32)
        self.randomized = False
        self.background_color = torch.ones(3)

    def forward_bg_(self, rays):
        n_rays = rays.shape[0]
        rays_o, rays_d = rays[:, 0:3], rays[:, 3:6] # both (N_rays, 3)

        def sigma_fn(t_starts, t_ends, ray_indices):
            ray_indices = ray_indices.long()
            t_origins = rays_o[ray_indices]
            t_dirs = rays_d[ray_indices]
            positions = t_origins + t_dirs * (t_starts + t_ends) / 2.
            density, _ = self.geometry_bg(positions)
            return density[...,None]

        _, t_max = ray_aabb_intersect(rays_o, rays_d, self.scene_aabb)
        # if the ray intersects with the bounding box, start from the farther intersection point
        # otherwise start from self.far_plane_bg
        # note that in nerfacc t_max is set to 1e10 if there is no intersection
        near_plane = torch.where(t_max.double() > 1e9, self.near_plane_bg, t_max.double())
        with torch.no_grad():
            ray_indices, t_starts, t_ends = ray_marching(
                rays_o, rays_d,
                scene_aabb=None,
                grid=self.occupancy_grid_bg if self.config.grid_prune else None,
                sigma_fn=sigma_fn,
                near_plane=near_plane, far_plane=self.far_plane_bg,
                render_step_size=self.render_step_size_bg,
                stratified=self.randomized,
                cone_angle=self.cone_angle_bg,
                alpha_thre=0.0
            )

        ray_indices = ray_indices.long()
        t_origins = rays_o[ray_indices]
        t_dirs = rays_d[ray_indices]
        midpoints = (t_starts + t_ends) / 2.
        positions = t_origins + t_dirs * midpoints

        density, feature = self.geometry_bg(positions)
        rgb = self.texture_bg(feature, t_dirs)

        weights = render_weight_from_density(t_starts, t_ends, density[...,None], ray_indices=ray_indices, n_rays=n_rays)
        opacity = accumulate_along_rays(weights, ray_indices, values=None, n_rays=n_rays)
        comp_rgb = accumulate_along_rays(weights, ray_indices, values=rgb, n_rays=n_rays)
        comp_rgb = comp_rgb + self.background_color * (1.0 - opacity)
        return {'comp_rgb': comp_rgb, 'opacity': opacity}

    def forward(self, rays):
        return self.forward_bg_(rays)

config = SimpleNamespace(radius=0.5, grid_prune=True, learned_background=True, num_samples_per_ray_bg=64)
model = NeuSModel(config)
g = torch.Generator().manual_seed(0)
rays_o = torch.randn(256, 3, generator=g) * 0.1 + torch.tensor([0.0, 0.0, 2.0])
rays_d = F.normalize(torch.randn(256, 3, generator=g) * 0.2 + torch.tensor([0.0, 0.0, -1.0]), dim=-1)
rays = torch.cat([rays_o, rays_d], dim=-1)
'''
CELL = '''
model.eval()
with torch.no_grad():
    out = model(rays)
print(out["comp_rgb"].shape)
'''
EXPECT_ERROR = ("expected scalar type Float but found Double", "same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("near_plane = torch.where(t_max.double() > 1e9, self.near_plane_bg, t_max.double())",
                  "near_plane = torch.where(t_max > 1e9, self.near_plane_bg, t_max)")
CLEAN = False
