"""nerfstudio `ns-train vanilla-nerf`: the renderer's white background tensor stays on the CPU and is blended into CUDA RGBA images.

Source: https://github.com/nerfstudio-project/nerfstudio/pull/2381
"cast background to device": "running `ns-train vanilla-nerf` resulted in the following error"
(trainer -> `pipeline.get_train_loss_dict` -> ... "Expected all tensors to be on the same device").
Vanilla NeRF builds `RGBRenderer(background_color=colors.WHITE)`; `colors.WHITE` is a module-level
CPU tensor that the renderer keeps as a plain attribute, so `model.to(device)` never moves it, and
`blend_background` mixes it with the RGBA ground-truth image on the GPU when computing the loss.
The PR casts the background to the image's device in the renderer. Stand-in: `colors`, RGBRenderer's
blending helpers, and the model's loss computation with a two-layer field.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class colors:                                      # nerfstudio.utils.colors
    WHITE = torch.tensor([1.0, 1.0, 1.0])
    BLACK = torch.tensor([0.0, 0.0, 0.0])

class RGBRenderer(nn.Module):
    def __init__(self, background_color=colors.WHITE):
        super().__init__()
        self.background_color = background_color

    def forward(self, rgb, weights):
        comp_rgb = torch.sum(weights * rgb, dim=-2)
        return comp_rgb

    @staticmethod
    def blend_background(image, background_color):
        if image.size(-1) < 4:
            return image
        rgb, opacity = image.narrow(-1, 0, 3), image.narrow(-1, 3, 1)
        return rgb * opacity + background_color * (1.0 - opacity)

    def blend_background_for_loss_computation(self, pred_image, pred_accumulation, gt_image):
        background_color = self.background_color
        gt_image = self.blend_background(gt_image, background_color=background_color)
        pred_image = pred_image + background_color * (1.0 - pred_accumulation)
        return pred_image, gt_image

class NeRFModel(nn.Module):
    def __init__(self, num_samples=32):
        super().__init__()
        self.field = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 4))
        self.renderer_rgb = RGBRenderer(background_color=colors.WHITE)
        self.rgb_loss = nn.MSELoss()
        self.num_samples = num_samples

    @property
    def device(self):
        return next(self.parameters()).device

    def get_outputs(self, origins, directions):
        t = torch.linspace(2.0, 6.0, self.num_samples, device=origins.device)
        pts = origins.unsqueeze(1) + directions.unsqueeze(1) * t.view(1, -1, 1)
        out = self.field(pts)
        density = torch.relu(out.narrow(-1, 3, 1))
        weights = torch.softmax(density, dim=1) * (1 - torch.exp(-density.sum(1, keepdim=True)))
        rgb = self.renderer_rgb(torch.sigmoid(out.narrow(-1, 0, 3)), weights)
        return {"rgb": rgb, "accumulation": weights.sum(1)}

    def get_loss_dict(self, outputs, batch):
        image = batch["image"].to(self.device)
        pred_rgb, image = self.renderer_rgb.blend_background_for_loss_computation(
            pred_image=outputs["rgb"], pred_accumulation=outputs["accumulation"], gt_image=image)
        return {"rgb_loss_coarse": self.rgb_loss(image, pred_rgb)}

device = torch.device("cuda:0")
model = NeRFModel().to(device)
ray_bundle = {"origins": torch.zeros(1024, 3), "directions": nn.functional.normalize(torch.randn(1024, 3), dim=-1)}
batch = {"image": torch.rand(1024, 4)}                        # blender images are RGBA
'''
CELL = '''
with torch.no_grad():
    outputs = model.get_outputs(ray_bundle["origins"].to(device), ray_bundle["directions"].to(device))
    loss_dict = model.get_loss_dict(outputs, batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.renderer_rgb.background_color"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        background_color = self.background_color\n",
                  "        background_color = self.background_color.to(gt_image.device)\n")
CLEAN = False
