"""Look-alike: torch-ngp's NeRFRenderer builds its AABB tensors on the CPU in `__init__`, but registers them as buffers.

Source: https://github.com/ashawkey/torch-ngp/blob/main/nerf/renderer.py
`NeRFRenderer.__init__` does `aabb_train = torch.FloatTensor([-bound, -bound, -bound, bound, bound,
bound])` with no device, then `self.register_buffer('aabb_train', aabb_train)` and
`self.register_buffer('aabb_infer', aabb_infer)`. A CPU tensor created in a constructor is the usual
"left behind by model.to(device)" bug; here `model.to(device)` moves the buffers, and
`near_far_from_aabb(rays_o, rays_d, self.aabb_train ...)` runs with CUDA rays. Stand-in: the renderer
with a pure-torch `near_far_from_aabb` and a tiny density/colour MLP instead of the hash grid.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def near_far_from_aabb(rays_o, rays_d, aabb, min_near=0.2):
    inv_d = 1.0 / (rays_d + 1e-9)
    t0 = (aabb[:3] - rays_o) * inv_d
    t1 = (aabb[3:] - rays_o) * inv_d
    near = torch.minimum(t0, t1).amax(-1).clamp(min=min_near)
    far = torch.maximum(t0, t1).amin(-1)
    return near, torch.maximum(far, near + 1e-3)

class NeRFRenderer(nn.Module):
    def __init__(self, bound=1, min_near=0.2):
        super().__init__()
        self.bound, self.min_near = bound, min_near
        aabb_train = torch.FloatTensor([-bound, -bound, -bound, bound, bound, bound])
        aabb_infer = aabb_train.clone()
        self.register_buffer('aabb_train', aabb_train)
        self.register_buffer('aabb_infer', aabb_infer)

    def run(self, rays_o, rays_d, num_steps=16):
        aabb = self.aabb_train if self.training else self.aabb_infer
        nears, fars = near_far_from_aabb(rays_o, rays_d, aabb, self.min_near)
        z_vals = torch.linspace(0.0, 1.0, num_steps, device=rays_o.device).unsqueeze(0)
        z_vals = nears.unsqueeze(-1) + (fars - nears).unsqueeze(-1) * z_vals
        xyzs = rays_o.unsqueeze(-2) + rays_d.unsqueeze(-2) * z_vals.unsqueeze(-1)
        xyzs = torch.min(torch.max(xyzs, aabb[:3]), aabb[3:])
        sigma, rgb = self.density_color(xyzs)
        alphas = 1 - torch.exp(-sigma.squeeze(-1) * (fars - nears).unsqueeze(-1) / num_steps)
        weights = alphas * torch.cumprod(torch.cat([torch.ones_like(alphas[:, :1]), 1 - alphas + 1e-15], -1), -1)[:, :-1]
        return (weights.unsqueeze(-1) * rgb).sum(-2)

class NeRFNetwork(NeRFRenderer):
    def __init__(self, bound=1):
        super().__init__(bound=bound)
        self.sigma_net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))
    def density_color(self, x):
        h = self.sigma_net(x / self.bound)
        return torch.relu(h[..., :1]), torch.sigmoid(h[..., 1:])

device = torch.device("cuda:0")
model = NeRFNetwork(bound=1).to(device)
rays_o = torch.randn(256, 3, device=device) * 0.1 + torch.tensor([0.0, 0.0, -2.5]).to(device)
rays_d = torch.nn.functional.normalize(torch.randn(256, 3, device=device) * 0.1 + torch.tensor([0.0, 0.0, 1.0]).to(device), dim=-1)
'''
CELL = '''
with torch.no_grad():
    image = model.run(rays_o, rays_d)
print(model.aabb_train.device, image.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
