"""Look-alike: nerfstudio's `AABBBoxCollider` reads a CPU `scene_box.aabb` while the rays are on cuda:0, and works.

Source: https://github.com/nerfstudio-project/nerfstudio/blob/main/nerfstudio/model_components/scene_colliders.py
`SceneBox` is a dataclass, so `model.to(device)` never moves `model.scene_box.aabb`; the fields register their
own buffer copy (`NerfactoField.register_buffer("aabb", aabb)`), while `AABBBoxCollider.set_nears_and_fars`
uses `aabb = self.scene_box.aabb` directly. `_intersect_with_aabb` only takes 0-dim elements
(`aabb[0, 0] - rays_o[:, 0:1]`), which PyTorch accepts next to CUDA tensors as CPU scalars. The CPU box is
harmless by design (vanilla-nerf / instant-ngp models use this collider).
Stand-ins: `SceneBox`, `RayBundle`, the collider as in nerfstudio (`rays_o[:, 0:1]` written as `narrow`), and a
model whose field keeps a buffer copy of the box.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
from typing import Optional
import torch
import torch.nn as nn

@dataclass
class SceneBox:
    aabb: torch.Tensor

@dataclass
class RayBundle:
    origins: torch.Tensor
    directions: torch.Tensor
    nears: Optional[torch.Tensor] = None
    fars: Optional[torch.Tensor] = None

class SceneCollider(nn.Module):
    def __init__(self, **kwargs):
        self.kwargs = kwargs
        super().__init__()
    def forward(self, ray_bundle):
        if ray_bundle.nears is not None and ray_bundle.fars is not None:
            return ray_bundle
        return self.set_nears_and_fars(ray_bundle)

class AABBBoxCollider(SceneCollider):
    def __init__(self, scene_box, near_plane=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scene_box = scene_box
        self.near_plane = near_plane
    def _intersect_with_aabb(self, rays_o, rays_d, aabb):
        dir_fraction = 1.0 / (rays_d + 1e-6)
        t1 = (aabb[0, 0] - rays_o.narrow(1, 0, 1)) * dir_fraction.narrow(1, 0, 1)
        t2 = (aabb[1, 0] - rays_o.narrow(1, 0, 1)) * dir_fraction.narrow(1, 0, 1)
        t3 = (aabb[0, 1] - rays_o.narrow(1, 1, 1)) * dir_fraction.narrow(1, 1, 1)
        t4 = (aabb[1, 1] - rays_o.narrow(1, 1, 1)) * dir_fraction.narrow(1, 1, 1)
        t5 = (aabb[0, 2] - rays_o.narrow(1, 2, 1)) * dir_fraction.narrow(1, 2, 1)
        t6 = (aabb[1, 2] - rays_o.narrow(1, 2, 1)) * dir_fraction.narrow(1, 2, 1)
        nears = torch.max(torch.cat([torch.minimum(t1, t2), torch.minimum(t3, t4), torch.minimum(t5, t6)], dim=1), dim=1).values
        fars = torch.min(torch.cat([torch.maximum(t1, t2), torch.maximum(t3, t4), torch.maximum(t5, t6)], dim=1), dim=1).values
        near_plane = self.near_plane if self.training else 0
        nears = torch.clamp(nears, min=near_plane)
        fars = torch.maximum(fars, nears + 1e-6)
        return nears, fars
    def set_nears_and_fars(self, ray_bundle):
        aabb = self.scene_box.aabb
        nears, fars = self._intersect_with_aabb(ray_bundle.origins, ray_bundle.directions, aabb)
        ray_bundle.nears = nears[..., None]
        ray_bundle.fars = fars[..., None]
        return ray_bundle

class TCNNNerfactoField(nn.Module):
    def __init__(self, aabb):
        super().__init__()
        self.register_buffer("aabb", aabb)
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 4))
    def forward(self, positions):
        lo, hi = self.aabb.select(0, 0), self.aabb.select(0, 1)
        return self.mlp((positions - lo) / (hi - lo))

class NGPModel(nn.Module):
    def __init__(self, scene_box, num_samples=32):
        super().__init__()
        self.scene_box = scene_box
        self.field = TCNNNerfactoField(self.scene_box.aabb)
        self.collider = AABBBoxCollider(self.scene_box, near_plane=0.05)
        self.num_samples = num_samples
    def forward(self, ray_bundle):
        ray_bundle = self.collider(ray_bundle)
        u = torch.linspace(0, 1, self.num_samples, device=ray_bundle.origins.device).view(1, -1)
        t = ray_bundle.nears + (ray_bundle.fars - ray_bundle.nears) * u
        pts = ray_bundle.origins.unsqueeze(1) + ray_bundle.directions.unsqueeze(1) * t.unsqueeze(-1)
        h = self.field(pts)
        w = torch.softmax(h.narrow(-1, 0, 1), dim=1)
        return {"rgb": (w * torch.sigmoid(h.narrow(-1, 1, 3))).sum(1), "depth": (w.squeeze(-1) * t).sum(1)}

scene_box = SceneBox(aabb=torch.tensor([[-1.5, -1.5, -1.5], [1.5, 1.5, 1.5]]))
model = NGPModel(scene_box)
model.to("cuda:0")
origins = torch.zeros(256, 3, device="cuda:0") + torch.tensor([0.0, 0.0, 4.0], device="cuda:0")
directions = torch.nn.functional.normalize(torch.randn(256, 3, device="cuda:0") * 0.1 + torch.tensor([0.0, 0.0, -1.0], device="cuda:0"), dim=-1)
'''
CELL = '''
model.eval()
with torch.no_grad():
    outputs = model(RayBundle(origins=origins, directions=directions))
print(model.scene_box.aabb.device, model.field.aabb.device, outputs["depth"].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
