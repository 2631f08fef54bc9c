"""nerfstudio (nerfactory) mip-NeRF: `get_loss_dict` compares the CPU pixel batch with the renders on the GPU.

Source: https://github.com/nerfstudio-project/nerfstudio/pull/506
"Small device bug in mipnerf" / "device bug in mipnerf.": the datamanager hands the model a `batch` whose
`image` pixels stay on the CPU (only the ray bundle is moved to the device), and
`MipNerfModel.get_loss_dict` passed `batch["image"]` straight to `self.rgb_loss` against
`outputs["rgb_coarse"]` on cuda. `get_image_metrics_and_images` already did `.to(...)`; the PR changes the
loss to `image = batch["image"].to(self.device)` (same in mip-NeRF 360).
Stand-ins: the datamanager (pixel batch on the CPU, ray bundle on the device), a uniform sampler + small
field MLP for the coarse and fine passes, and the RGB renderer compositing a white background.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from dataclasses import dataclass, field

@dataclass
class RayBundle:
    origins: torch.Tensor
    directions: torch.Tensor
    def to(self, device):
        return RayBundle(self.origins.to(device), self.directions.to(device))

class MSELoss(nn.MSELoss):
    pass

class RGBRenderer(nn.Module):
    def __init__(self, background_color):
        super().__init__()
        self.background_color = background_color
    def forward(self, rgb, weights):
        comp_rgb = (weights * rgb).sum(dim=-2)
        acc = weights.sum(dim=-2)
        return comp_rgb + self.background_color.to(weights.device) * (1.0 - acc)

class NeRFField(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 4))
    def forward(self, positions, directions):
        h = self.mlp(torch.cat([positions, directions.expand_as(positions)], -1))
        return torch.relu(h.narrow(-1, 0, 1)), torch.sigmoid(h.narrow(-1, 1, 3))

@dataclass
class MipNerfModelConfig:
    num_coarse_samples: int = 32
    num_importance_samples: int = 32
    loss_coefficients: dict = field(default_factory=lambda: {"rgb_loss_coarse": 0.1, "rgb_loss_fine": 1.0})

class MipNerfModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.field = NeRFField()
        self.renderer_rgb = RGBRenderer(background_color=torch.tensor([1.0, 1.0, 1.0]))
        self.rgb_loss = MSELoss()
    @property
    def device(self):
        return next(self.parameters()).device
    def _render(self, ray_bundle, num_samples):
        t = torch.linspace(2.0, 6.0, num_samples, device=ray_bundle.origins.device)
        positions = ray_bundle.origins.unsqueeze(-2) + ray_bundle.directions.unsqueeze(-2) * t.view(1, -1, 1)
        density, rgb = self.field(positions, ray_bundle.directions.unsqueeze(-2))
        alpha = 1 - torch.exp(-density * (4.0 / num_samples))
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha.narrow(-2, 0, 1)), 1 - alpha.narrow(-2, 0, num_samples - 1) + 1e-10], -2), -2)
        return self.renderer_rgb(rgb=rgb, weights=alpha * trans)
    def get_outputs(self, ray_bundle):
        rgb_coarse = self._render(ray_bundle, self.config.num_coarse_samples)
        rgb_fine = self._render(ray_bundle, self.config.num_coarse_samples + self.config.num_importance_samples)
        return {"rgb_coarse": rgb_coarse, "rgb_fine": rgb_fine}
    def forward(self, ray_bundle):
        return self.get_outputs(ray_bundle)

    def get_loss_dict(self, outputs, batch, metrics_dict=None):
        image = batch["image"]
        rgb_loss_coarse = self.rgb_loss(image, outputs["rgb_coarse"])
        rgb_loss_fine = self.rgb_loss(image, outputs["rgb_fine"])
        loss_dict = {"rgb_loss_coarse": rgb_loss_coarse, "rgb_loss_fine": rgb_loss_fine}
        loss_dict = {k: v * self.config.loss_coefficients[k] for k, v in loss_dict.items()}
        return loss_dict

class VanillaDataManager:
    """Stand-in: a pixel sampler over CPU images; only the ray bundle goes to the device."""
    def __init__(self, images, device, num_rays_per_batch=256):
        self.images, self.device, self.num_rays_per_batch = images, device, num_rays_per_batch
        self.generator = torch.Generator().manual_seed(0)
    def next_train(self, step):
        n, h, w, _ = self.images.shape
        flat = self.images.reshape(-1, 3)
        idx = torch.randint(0, flat.shape[0], (self.num_rays_per_batch,), generator=self.generator)
        batch = {"image": flat[idx], "indices": idx}
        dirs = torch.nn.functional.normalize(torch.randn(self.num_rays_per_batch, 3, generator=self.generator), dim=-1)
        ray_bundle = RayBundle(torch.zeros(self.num_rays_per_batch, 3), dirs).to(self.device)
        return ray_bundle, batch

device = torch.device("cuda:0")
model = MipNerfModel(MipNerfModelConfig())
model.to(device)
datamanager = VanillaDataManager(torch.rand(2, 16, 16, 3), device)
'''
CELL = '''
step = 0
ray_bundle, batch = datamanager.next_train(step)
with torch.no_grad():
    model_outputs = model(ray_bundle)
    loss_dict = model.get_loss_dict(model_outputs, batch)
loss = sum(loss_dict.values())
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        image = batch["image"]\n', '        image = batch["image"].to(self.device)\n')
CLEAN = False
