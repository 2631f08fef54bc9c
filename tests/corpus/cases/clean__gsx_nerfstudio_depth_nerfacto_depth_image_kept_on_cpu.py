"""Look-alike: nerfstudio depth-nerfacto keeps `batch["image"]` and `batch["depth_image"]` on the CPU and moves them inside the model.

Source: https://github.com/nerfstudio-project/nerfstudio/blob/main/nerfstudio/models/depth_nerfacto.py
(with nerfstudio/data/datasets/depth_dataset.py, PR #3449 "Keep depth_image on CPU"). `DepthDataset`
sets `exclude_batch_keys_from_device = InputDataset.exclude_batch_keys_from_device + ["depth_image"]`, so
the datamanager leaves the pixel targets on the CPU while the ray bundle goes to the device;
`DepthNerfactoModel.get_metrics_dict` reads `termination_depth = batch["depth_image"].to(self.device)` and
the RGB loss does `batch["image"].to(self.device)`. The user's `batch` holds CPU tensors by design.
Stand-ins: the datamanager (pixel sampling on the CPU, rays built from device cameras with
`index_select`), a small field MLP with uniform samples, and the depth loss reduced to an expected-depth
L2 term.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from dataclasses import dataclass

@dataclass
class RayBundle:
    origins: torch.Tensor
    directions: torch.Tensor

class InputDataset:
    exclude_batch_keys_from_device = ["image", "mask"]
    def __init__(self, images, camera_to_worlds, focal):
        self.images, self.camera_to_worlds, self.focal = images, camera_to_worlds, focal

class DepthDataset(InputDataset):
    exclude_batch_keys_from_device = InputDataset.exclude_batch_keys_from_device + ["depth_image"]
    def __init__(self, images, depths, camera_to_worlds, focal):
        super().__init__(images, camera_to_worlds, focal)
        self.depths = depths

class VanillaDataManager:
    def __init__(self, train_dataset, device, num_rays_per_batch=128):
        self.train_dataset, self.device, self.num_rays_per_batch = train_dataset, device, num_rays_per_batch
        self.exclude_batch_keys_from_device = train_dataset.exclude_batch_keys_from_device
        self.camera_to_worlds = train_dataset.camera_to_worlds.to(device)
        self.generator = torch.Generator().manual_seed(0)
    def next_train(self, step):
        ds = self.train_dataset
        n, h, w, _ = ds.images.shape
        c = torch.randint(0, n, (self.num_rays_per_batch,), generator=self.generator)
        y = torch.randint(0, h, (self.num_rays_per_batch,), generator=self.generator)
        x = torch.randint(0, w, (self.num_rays_per_batch,), generator=self.generator)
        batch = {"image": ds.images[c, y, x], "depth_image": ds.depths[c, y, x], "indices": torch.stack([c, y, x], -1)}
        batch = {k: v if k in self.exclude_batch_keys_from_device else v.to(self.device) for k, v in batch.items()}
        c_d, y_d, x_d = c.to(self.device), y.to(self.device), x.to(self.device)
        dirs_cam = torch.stack([(x_d.float() - w / 2) / ds.focal, -(y_d.float() - h / 2) / ds.focal, -torch.ones(self.num_rays_per_batch, device=self.device)], -1)
        c2w = self.camera_to_worlds.index_select(0, c_d)
        directions = (c2w.narrow(2, 0, 3) @ dirs_cam.unsqueeze(-1)).squeeze(-1)
        origins = c2w.narrow(2, 3, 1).squeeze(-1)
        return RayBundle(origins, directions / directions.norm(dim=-1, keepdim=True)), batch

class DepthNerfactoModel(nn.Module):
    def __init__(self, depth_loss_mult=1e-3, num_samples=24):
        super().__init__()
        self.field = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 4))
        self.depth_loss_mult, self.num_samples = depth_loss_mult, num_samples
        self.rgb_loss = nn.MSELoss()
    @property
    def device(self):
        return next(self.parameters()).device
    def forward(self, ray_bundle):
        t = torch.linspace(0.5, 6.0, self.num_samples, device=ray_bundle.origins.device)
        pts = ray_bundle.origins.unsqueeze(1) + ray_bundle.directions.unsqueeze(1) * t.view(1, -1, 1)
        h = self.field(torch.cat([pts, ray_bundle.directions.unsqueeze(1).expand_as(pts)], -1))
        alpha = 1 - torch.exp(-torch.relu(h.narrow(-1, 0, 1)) * (5.5 / self.num_samples))
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha.narrow(1, 0, 1)), 1 - alpha.narrow(1, 0, self.num_samples - 1) + 1e-10], 1), 1)
        weights = alpha * trans
        return {"rgb": (weights * torch.sigmoid(h.narrow(-1, 1, 3))).sum(1),
                "expected_depth": (weights * t.view(1, -1, 1)).sum(1), "weights": weights}
    def get_metrics_dict(self, outputs, batch):
        metrics_dict = {}
        termination_depth = batch["depth_image"].to(self.device)
        metrics_dict["depth_loss"] = ((outputs["expected_depth"] - termination_depth) ** 2).mean()
        return metrics_dict
    def get_loss_dict(self, outputs, batch, metrics_dict=None):
        image = batch["image"].to(self.device)
        loss_dict = {"rgb_loss": self.rgb_loss(image, outputs["rgb"])}
        if metrics_dict is not None and "depth_loss" in metrics_dict:
            loss_dict["depth_loss"] = self.depth_loss_mult * metrics_dict["depth_loss"]
        return loss_dict

device = torch.device("cuda:0")
c2ws = torch.eye(4)[:3].repeat(3, 1, 1)
c2ws[:, 2, 3] = torch.tensor([3.0, 3.5, 4.0])
train_dataset = DepthDataset(torch.rand(3, 24, 32, 3), torch.rand(3, 24, 32, 1) * 4 + 1, c2ws, focal=30.0)
datamanager = VanillaDataManager(train_dataset, device)
model = DepthNerfactoModel()
model.to(device)
'''
CELL = '''
ray_bundle, batch = datamanager.next_train(step=0)
with torch.no_grad():
    model_outputs = model(ray_bundle)
    metrics_dict = model.get_metrics_dict(model_outputs, batch)
    loss_dict = model.get_loss_dict(model_outputs, batch, metrics_dict)
print(batch["depth_image"].device, batch["indices"].device, loss_dict["depth_loss"].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
