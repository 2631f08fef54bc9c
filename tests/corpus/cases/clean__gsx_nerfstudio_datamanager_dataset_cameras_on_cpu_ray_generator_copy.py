"""Look-alike: nerfstudio's datamanager leaves `train_dataset.cameras` on the CPU and gives its ray generator a device copy.

Source: https://github.com/nerfstudio-project/nerfstudio/blob/main/nerfstudio/data/datamanagers/base_datamanager.py
`VanillaDataManager.setup_train` builds `self.train_ray_generator = RayGenerator(self.train_dataset.cameras.to(self.device))`
while the dataset keeps its own `Cameras` on the CPU (the image dataloader and pixel sampler work there);
`next_train` samples pixel indices, and the ray generator turns them into rays with its device cameras and the
`image_coords` buffer (moved when the pipeline does `self.datamanager.to(device)`). So `datamanager.train_dataset.cameras` is a CPU object next to a cuda:0 model, on purpose.
Stand-ins: `Cameras` (pinhole, `.to` returns a copy), a pixel sampler on the CPU, `RayGenerator` as an
`nn.Module` with the `image_coords` buffer (its `image_coords[y, x]` lookup written as `index_select` on the
flattened grid), and a small field for the model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
import torch
import torch.nn as nn

@dataclass
class Cameras:
    camera_to_worlds: torch.Tensor
    fx: float
    fy: float
    cx: float
    cy: float
    width: int
    height: int
    def to(self, device):
        return Cameras(self.camera_to_worlds.to(device), self.fx, self.fy, self.cx, self.cy, self.width, self.height)
    @property
    def device(self):
        return self.camera_to_worlds.device
    def get_image_coords(self):
        y, x = torch.meshgrid(torch.arange(self.height), torch.arange(self.width), indexing="ij")
        return torch.stack([y, x], -1).float() + 0.5
    def generate_rays(self, camera_indices, coords):
        c2w = self.camera_to_worlds.index_select(0, camera_indices.view(-1))
        y, x = coords.narrow(-1, 0, 1), coords.narrow(-1, 1, 1)
        d = torch.cat([(x - self.cx) / self.fx, -(y - self.cy) / self.fy, -torch.ones_like(x)], -1)
        directions = (c2w.narrow(2, 0, 3) @ d.unsqueeze(-1)).squeeze(-1)
        return c2w.narrow(2, 3, 1).squeeze(-1), directions / directions.norm(dim=-1, keepdim=True)

class RayGenerator(nn.Module):
    def __init__(self, cameras):
        super().__init__()
        self.cameras = cameras
        self.register_buffer("image_coords", cameras.get_image_coords(), persistent=False)
    def forward(self, ray_indices):
        c = ray_indices.select(1, 0)
        y = ray_indices.select(1, 1)
        x = ray_indices.select(1, 2)
        flat = self.image_coords.view(-1, 2)
        coords = flat.index_select(0, y * self.cameras.width + x)
        return self.cameras.generate_rays(camera_indices=c.unsqueeze(-1), coords=coords)

class InputDataset:
    def __init__(self, images, cameras):
        self.images, self.cameras = images, cameras

class VanillaDataManager(nn.Module):
    def __init__(self, train_dataset, device, num_rays_per_batch=256):
        super().__init__()
        self.train_dataset, self.device, self.num_rays_per_batch = train_dataset, device, num_rays_per_batch
        self.train_ray_generator = RayGenerator(self.train_dataset.cameras.to(self.device))
        self.generator = torch.Generator().manual_seed(0)
    def next_train(self, step):
        n, h, w, _ = self.train_dataset.images.shape
        indices = (torch.rand((self.num_rays_per_batch, 3), generator=self.generator) * torch.tensor([n, h, w])).long()
        c, y, x = (i.flatten() for i in torch.split(indices, 1, dim=-1))
        batch = {"image": self.train_dataset.images[c, y, x], "indices": indices}
        ray_bundle = self.train_ray_generator(batch["indices"].to(self.device))
        return ray_bundle, batch

class NerfactoModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.field = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 4))
    def forward(self, ray_bundle):
        origins, directions = ray_bundle
        t = torch.linspace(1.0, 5.0, 16, device=origins.device)
        pts = origins.unsqueeze(1) + directions.unsqueeze(1) * t.view(1, -1, 1)
        h = self.field(torch.cat([pts, directions.unsqueeze(1).expand_as(pts)], -1))
        w = torch.softmax(h.narrow(-1, 0, 1), dim=1)
        return {"rgb": (w * torch.sigmoid(h.narrow(-1, 1, 3))).sum(1)}

device = torch.device("cuda:0")
c2ws = torch.eye(4)[:3].repeat(5, 1, 1)
c2ws[:, 2, 3] = torch.linspace(3.0, 5.0, 5)
cameras = Cameras(c2ws, fx=40.0, fy=40.0, cx=24.0, cy=16.0, width=48, height=32)
datamanager = VanillaDataManager(InputDataset(torch.rand(5, 32, 48, 3), cameras), device)
datamanager.to(device)          # VanillaPipeline moves its datamanager (the ray generator's buffer)
model = NerfactoModel()
model.to(device)
'''
CELL = '''
ray_bundle, batch = datamanager.next_train(step=0)
with torch.no_grad():
    outputs = model(ray_bundle)
    rgb_loss = torch.nn.functional.mse_loss(outputs["rgb"], batch["image"].to(device))
print(datamanager.train_dataset.cameras.device, datamanager.train_ray_generator.cameras.device, rgb_loss.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
