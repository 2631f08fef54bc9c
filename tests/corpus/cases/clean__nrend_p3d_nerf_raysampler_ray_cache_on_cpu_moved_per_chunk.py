"""Look-alike: PyTorch3D's NeRF project keeps its precached ray bundles on the CPU and moves each chunk to the camera's device.

Source: https://github.com/facebookresearch/pytorch3d/blob/main/projects/nerf/nerf/raysampler.py
`NeRFRaysampler.precache_rays` stores every full-image `RayBundle` as
`RayBundle(*[v.to("cpu").detach() for v in ray_bundle])` ("The cached rays are moved to cpu"), to spare
GPU memory. At evaluation `forward(cameras, chunksize, chunk_idx, camera_hash=...)` takes the cached
bundle, builds `sel_rays = torch.arange(start, end, device=full_ray_bundle.lengths.device)` on the
cache's device, slices every field with it and calls `.to(device)` (the cameras' device) before the
implicit function runs. CPU ray cache beside a CUDA model is the intended layout. Stand-ins: RayBundle,
a camera holder, the raysampler reduced to the cache path of `forward` (the cache is filled from CPU
camera copies here, since the fake device cannot be copied back to the CPU), and a tiny NeRF MLP.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
from typing import NamedTuple

class RayBundle(NamedTuple):
    origins: torch.Tensor
    directions: torch.Tensor
    lengths: torch.Tensor
    xys: torch.Tensor

class Cameras:
    def __init__(self, R, T):
        self.R, self.T = R, T
    @property
    def device(self):
        return self.R.device

class NeRFRaysampler(nn.Module):
    def __init__(self, n_pts_per_ray=8, min_depth=0.1, max_depth=3.0, image_width=16, image_height=16):
        super().__init__()
        self.n_pts_per_ray, self.min_depth, self.max_depth = n_pts_per_ray, min_depth, max_depth
        self.W, self.H = image_width, image_height
        self._ray_cache = {}

    def _grid_raysampler(self, cameras):
        ys, xs = torch.meshgrid(torch.linspace(1, -1, self.H, device=cameras.device),
                                torch.linspace(1, -1, self.W, device=cameras.device), indexing="ij")
        xys = torch.stack([xs, ys], -1)[None]
        directions = torch.cat([xys, torch.ones_like(xys[..., :1])], -1) @ cameras.R
        origins = cameras.T[:, None, None, :].expand_as(directions)
        lengths = torch.linspace(self.min_depth, self.max_depth, self.n_pts_per_ray, device=cameras.device).expand(1, self.H, self.W, -1)
        return RayBundle(origins, directions, lengths, xys)

    def precache_rays(self, cameras, camera_hashes):
        for camera, camera_hash in zip(cameras, camera_hashes):
            ray_bundle = self._grid_raysampler(camera)
            self._ray_cache[camera_hash] = RayBundle(*[v.to("cpu").detach() for v in ray_bundle])

    def forward(self, cameras, chunksize=None, chunk_idx=0, camera_hash=None):
        batch_size = cameras.R.shape[0]
        device = cameras.device
        full_ray_bundle = self._ray_cache[camera_hash]
        n_pixels = full_ray_bundle.directions.shape[:-1].numel()
        if chunksize is None:
            chunksize = n_pixels * batch_size
        start = chunk_idx * chunksize * batch_size
        end = min(start + chunksize, n_pixels)
        sel_rays = torch.arange(start, end, dtype=torch.long, device=full_ray_bundle.lengths.device)
        return RayBundle(*[v.view(n_pixels, -1)[sel_rays].view(batch_size, sel_rays.numel() // batch_size, -1).to(device)
                           for v in full_ray_bundle])

class NeuralRadianceField(nn.Module):
    def __init__(self, n_hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(6, n_hidden), nn.Softplus(), nn.Linear(n_hidden, 4))
    def forward(self, ray_bundle):
        pts = ray_bundle.origins[..., None, :] + ray_bundle.directions[..., None, :] * ray_bundle.lengths[..., :, None]
        dirs = ray_bundle.directions[..., None, :].expand_as(pts)
        out = self.mlp(torch.cat([pts, dirs], -1))
        sigma, rgb = torch.relu(out[..., :1]), torch.sigmoid(out[..., 1:])
        weights = 1 - torch.exp(-sigma)
        return (weights * rgb).sum(-2)

device = torch.device("cuda:0")
raysampler = NeRFRaysampler()
implicit_function = NeuralRadianceField().to(device)
implicit_function.eval()
# precache_rays(cache_cameras, cache_camera_hashes) in train_nerf.py, on the cameras' CPU copies here
cpu_cameras = [Cameras(torch.eye(3)[None], torch.tensor([[0.0, 0.0, -2.0 - i]])) for i in range(3)]
raysampler.precache_rays(cpu_cameras, [0, 1, 2])
camera = Cameras(torch.eye(3, device=device)[None], torch.tensor([[0.0, 0.0, -3.0]], device=device))
'''
CELL = '''
chunks = []
with torch.no_grad():
    for chunk_idx in range(4):
        ray_bundle = raysampler(camera, chunksize=64, chunk_idx=chunk_idx, camera_hash=1)
        chunks.append(implicit_function(ray_bundle))
rgb = torch.cat(chunks, dim=1)
print(raysampler._ray_cache[1].lengths.device, rgb.device, rgb.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
