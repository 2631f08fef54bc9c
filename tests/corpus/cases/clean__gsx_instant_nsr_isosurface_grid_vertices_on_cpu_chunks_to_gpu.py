"""Look-alike: instant-nsr-pl extracts the isosurface from a CPU vertex grid, moving each chunk to the GPU and each SDF chunk back.

Source: https://github.com/bennyguo/instant-nsr-pl/blob/main/models/geometry.py
`MarchingCubeHelper.grid_vertices()` caches the query grid in a plain attribute `self.verts` (not a buffer,
so `model.to(device)` leaves it on the CPU); `BaseImplicitGeometry.isosurface_` evaluates it with
`chunk_batch(batch_func, chunk, True, self.helper.grid_vertices())`, where `batch_func` rescales a chunk,
moves it with `.to(self.rank)`, runs `forward_level` on the GPU and returns `.cpu()`; marching cubes then
run on the CPU (PyMCubes). The CPU grid and CPU level are deliberate, to save GPU memory.
Stand-ins: `chunk_batch`, `scale_anything` (`.to(self.rank)` written `.to(torch.device("cuda", self.rank))`), a small SDF network, and marching cubes reduced to a CPU
torch step (vertices of the grid cells whose level crosses the threshold, weighted rather than filtered,
since the simulation has no data-dependent shapes).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

def get_rank():
    return 0

def scale_anything(dat, inp_scale, tgt_scale):
    if inp_scale is None:
        inp_scale = [dat.min(), dat.max()]
    dat = (dat - inp_scale[0]) / (inp_scale[1] - inp_scale[0])
    dat = dat * (tgt_scale[1] - tgt_scale[0]) + tgt_scale[0]
    return dat

def chunk_batch(func, chunk_size, move_to_cpu, *args, **kwargs):
    B = None
    for arg in args:
        if isinstance(arg, torch.Tensor):
            B = arg.shape[0]
            break
    out = []
    for i in range(0, B, chunk_size):
        out_chunk = func(*[arg[i:i + chunk_size] if isinstance(arg, torch.Tensor) else arg for arg in args], **kwargs)
        out.append(out_chunk.cpu() if move_to_cpu else out_chunk)
    return torch.cat(out, dim=0)

class MarchingCubeHelper(nn.Module):
    def __init__(self, resolution, use_torch=False):
        super().__init__()
        self.resolution = resolution
        self.use_torch = use_torch
        self.points_range = (0, 1)
        self.verts = None
    def grid_vertices(self):
        if self.verts is None:
            x, y, z = (torch.linspace(*self.points_range, self.resolution) for _ in range(3))
            x, y, z = torch.meshgrid(x, y, z, indexing='ij')
            verts = torch.cat([x.reshape(-1, 1), y.reshape(-1, 1), z.reshape(-1, 1)], dim=-1).reshape(-1, 3)
            self.verts = verts
        return self.verts
    def forward(self, level, threshold=0.):
        level = level.float().view(self.resolution, self.resolution, self.resolution)
        # PyMCubes on the CPU, reduced to weighting the grid points by how close they are to the surface
        near = torch.exp(-((level - threshold) ** 2) * 50).view(-1, 1)
        verts = self.grid_vertices() * near
        return {'v_pos': verts, 't_pos_idx': torch.zeros(1, 3, dtype=torch.long)}

class VolumeSDF(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.helper = MarchingCubeHelper(config.isosurface.resolution, use_torch=False)
        self.radius = config.radius
        self.rank = get_rank()
        self.network = nn.Sequential(nn.Linear(3, 64), nn.Softplus(beta=100), nn.Linear(64, 1))
    def forward_level(self, points):
        return self.network(points).squeeze(-1) + points.norm(dim=-1) - 0.3
    def isosurface_(self, vmin, vmax):
        def batch_func(x):
            x = torch.stack([
                scale_anything(x[..., 0], (0, 1), (vmin[0], vmax[0])),
                scale_anything(x[..., 1], (0, 1), (vmin[1], vmax[1])),
                scale_anything(x[..., 2], (0, 1), (vmin[2], vmax[2])),
            ], dim=-1).to(torch.device("cuda", self.rank))
            rv = self.forward_level(x).cpu()
            return rv
        level = chunk_batch(batch_func, self.config.isosurface.chunk, True, self.helper.grid_vertices())
        mesh = self.helper(level, threshold=self.config.isosurface.threshold)
        return mesh
    @torch.no_grad()
    def isosurface(self):
        return self.isosurface_((-self.radius,) * 3, (self.radius,) * 3)

config = SimpleNamespace(radius=0.5, isosurface=SimpleNamespace(method="mc", resolution=16, chunk=1024, threshold=0.0))
geometry = VolumeSDF(config)
geometry.to("cuda:0")
'''
CELL = '''
mesh = geometry.isosurface()
print(mesh["v_pos"].shape, mesh["v_pos"].device, geometry.helper.verts.device, next(geometry.parameters()).device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
