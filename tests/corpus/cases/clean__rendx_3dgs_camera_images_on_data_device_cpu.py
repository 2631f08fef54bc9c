"""Look-alike: 3D Gaussian Splatting with `--data_device cpu` keeps every training image on the CPU beside CUDA Gaussians.

Source: https://github.com/graphdeco-inria/gaussian-splatting/blob/main/scene/cameras.py
`Camera.__init__` stores `self.original_image = image.clamp(0.0, 1.0).to(self.data_device)`, and the
README recommends `--data_device cpu` for large datasets to save VRAM, so the ground-truth images
sit on the CPU while the Gaussians, the view matrices (`.cuda()`) and the render are on the GPU.
train.py fetches `gt_image = viewpoint_cam.original_image.cuda()` right before the loss, so it runs.
Stand-ins: Camera, a GaussianModel and `render` reduced to a differentiable colour splat;
`.cuda()` is spelled `.to("cuda:0")` for the simulation.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Camera(nn.Module):
    def __init__(self, uid, image, data_device="cuda"):
        super().__init__()
        self.uid = uid
        self.data_device = torch.device(data_device)
        self.original_image = image.clamp(0.0, 1.0).to(self.data_device)
        self.image_height, self.image_width = image.shape[1], image.shape[2]
        self.world_view_transform = torch.eye(4).to("cuda:0")

class GaussianModel(nn.Module):
    def __init__(self, n=256):
        super().__init__()
        self._xyz = nn.Parameter(torch.randn(n, 3))
        self._features_dc = nn.Parameter(torch.rand(n, 3))
        self._opacity = nn.Parameter(torch.zeros(n, 1))

def render(viewpoint_camera, pc, bg_color):
    w = torch.sigmoid(pc._opacity)
    xyz_h = torch.cat([pc._xyz, torch.ones_like(pc._xyz[:, :1])], 1) @ viewpoint_camera.world_view_transform
    depth_w = torch.sigmoid(xyz_h[:, 2:3])
    color = (pc._features_dc * w * depth_w).sum(0) / (w * depth_w).sum(0)
    image = color[:, None, None].expand(3, viewpoint_camera.image_height, viewpoint_camera.image_width)
    return {"render": image + 0.0 * bg_color[:, None, None]}

def l1_loss(network_output, gt):
    return torch.abs(network_output - gt).mean()

gaussians = GaussianModel().to("cuda:0")
background = torch.tensor([0.0, 0.0, 0.0], dtype=torch.float32, device="cuda:0")
train_cameras = [Camera(i, torch.rand(3, 24, 32), data_device="cpu") for i in range(4)]
'''
CELL = '''
losses = []
with torch.no_grad():
    for viewpoint_cam in train_cameras:
        image = render(viewpoint_cam, gaussians, background)["render"]
        gt_image = viewpoint_cam.original_image.to("cuda:0")      # .cuda() in train.py
        losses.append(l1_loss(image, gt_image))
print(train_cameras[0].original_image.device, gaussians._xyz.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
