"""Look-alike: gsplat's image-fitting example builds the target image on the CPU and hands it to a trainer whose gaussians live on cuda:0.

Source: https://github.com/nerfstudio-project/gsplat/blob/main/examples/image_fitting.py
`main()` makes `gt_image = torch.ones((height, width, 3)) * 1.0` (or `image_path_to_tensor(img_path)`),
paints two quadrants and calls `SimpleTrainer(gt_image=gt_image, num_points=num_points)` with that CPU
tensor. The trainer fixes `self.device = torch.device("cuda:0")`, stores `self.gt_image =
gt_image.to(device=self.device)`, creates means/scales/rgbs/quats/opacities, `viewmat` and
`background` with `device=self.device`, and `train()` builds `K` on the device before rasterizing and
taking `mse_loss(out_img, self.gt_image)`. The user's `gt_image` stays on the CPU by design.
Stand-ins: SimpleTrainer (one iteration of `train`, `viewmat[None]` written as `unsqueeze(0)`) and
`rasterization` reduced to projecting the means and painting a gaussian-weighted colour per pixel.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import Tensor

def rasterization(means, quats, scales, opacities, colors, viewmats, Ks, width, height, packed=False):
    means_h = torch.cat([means, torch.ones_like(means.narrow(-1, 0, 1))], -1)
    cam = torch.einsum("cij,nj->cni", viewmats, means_h).narrow(-1, 0, 3)
    uv = torch.einsum("cij,cnj->cni", Ks, cam / cam.narrow(-1, 2, 1).clamp(min=1e-3)).narrow(-1, 0, 2)
    ys, xs = torch.meshgrid(torch.arange(height, device=means.device).float(), torch.arange(width, device=means.device).float(), indexing="ij")
    pix = torch.stack([xs, ys], -1).view(1, -1, 1, 2)
    d2 = ((pix - uv.unsqueeze(1)) ** 2).sum(-1) / (scales.mean(-1) * 10 + 1).view(1, 1, -1)
    w = opacities.view(1, 1, -1) * torch.exp(-d2)
    img = (w @ colors) / (w.sum(-1, keepdim=True) + 1e-6)
    return img.view(-1, height, width, colors.shape[-1]), None, {}

class SimpleTrainer:
    """Trains random gaussians to fit an image."""
    def __init__(self, gt_image: Tensor, num_points: int = 2000):
        self.device = torch.device("cuda:0")
        self.gt_image = gt_image.to(device=self.device)
        self.num_points = num_points
        fov_x = math.pi / 2.0
        self.H, self.W = gt_image.shape[0], gt_image.shape[1]
        self.focal = 0.5 * float(self.W) / math.tan(0.5 * fov_x)
        self.img_size = torch.tensor([self.W, self.H, 1], device=self.device)
        self._init_gaussians()

    def _init_gaussians(self):
        bd = 2
        self.means = bd * (torch.rand(self.num_points, 3, device=self.device) - 0.5)
        self.scales = torch.rand(self.num_points, 3, device=self.device)
        d = 3
        self.rgbs = torch.rand(self.num_points, d, device=self.device)
        u = torch.rand(self.num_points, 1, device=self.device)
        v = torch.rand(self.num_points, 1, device=self.device)
        w = torch.rand(self.num_points, 1, device=self.device)
        self.quats = torch.cat([torch.sqrt(1.0 - u) * torch.sin(2.0 * math.pi * v),
                                torch.sqrt(1.0 - u) * torch.cos(2.0 * math.pi * v),
                                torch.sqrt(u) * torch.sin(2.0 * math.pi * w),
                                torch.sqrt(u) * torch.cos(2.0 * math.pi * w)], -1)
        self.opacities = torch.ones((self.num_points), device=self.device)
        self.viewmat = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 8.0], [0.0, 0.0, 0.0, 1.0]], device=self.device)
        self.background = torch.zeros(d, device=self.device)

    def train_step(self):
        K = torch.tensor([[self.focal, 0, self.W / 2], [0, self.focal, self.H / 2], [0, 0, 1]], device=self.device)
        renders, _, _ = rasterization(self.means, self.quats / self.quats.norm(dim=-1, keepdim=True), self.scales,
                                      torch.sigmoid(self.opacities), torch.sigmoid(self.rgbs),
                                      self.viewmat.unsqueeze(0), K.unsqueeze(0), self.W, self.H, packed=False)
        out_img = renders.squeeze(0)
        return torch.nn.functional.mse_loss(out_img, self.gt_image)

height, width, num_points = 24, 32, 300
gt_image = torch.ones((height, width, 3)) * 1.0
# make top left and bottom right red, blue
gt_image[: height // 2, : width // 2, :] = torch.tensor([1.0, 0.0, 0.0])
gt_image[height // 2 :, width // 2 :, :] = torch.tensor([0.0, 0.0, 1.0])
'''
CELL = '''
trainer = SimpleTrainer(gt_image=gt_image, num_points=num_points)
with torch.no_grad():
    loss = trainer.train_step()
print(gt_image.device, trainer.gt_image.device, loss.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
