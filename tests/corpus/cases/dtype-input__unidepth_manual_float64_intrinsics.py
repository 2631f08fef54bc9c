"""UniDepth demo with hand-typed camera intrinsics: np.array(...) is float64, the model's rays are float32.

Source: https://github.com/lpiccinelli-eth/UniDepth/issues/9
The demo works with `torch.from_numpy(np.load("assets/demo/intrinsics.npy"))` (a float32 file).
Replacing it with `torch.from_numpy(np.array([[860.7, 0.0, 645.6], [0.0, 859.8, 353.4],
[0.0, 0.0, 1.0]]))` made `model.infer(rgb_torch, intrinsics_torch)` fail with "expected scalar type
Double but found Float": the new intrinsics are float64 and meet the float32 pixel grid when the
camera rays are built. The fix is a float32 intrinsics tensor. Stand-in: `infer` reduced to the ray
generation and a tiny depth head.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

def generate_rays(camera_intrinsics, image_shape):
    batch_size, device, dtype = camera_intrinsics.shape[0], camera_intrinsics.device, torch.float32
    height, width = image_shape
    pixel_coords_x = torch.linspace(0, width - 1, width, device=device, dtype=dtype)
    pixel_coords_y = torch.linspace(0, height - 1, height, device=device, dtype=dtype)
    pixel_coords = torch.stack([pixel_coords_x.repeat(height, 1),
                                pixel_coords_y.repeat(width, 1).t()], dim=2)      # (H, W, 2)
    pixel_coords = torch.cat([pixel_coords, torch.ones_like(pixel_coords[..., :1])], dim=-1)
    pixel_coords = pixel_coords.view(1, -1, 3).repeat(batch_size, 1, 1).transpose(1, 2)
    camera_intrinsics_inv = torch.inverse(camera_intrinsics)
    rays = camera_intrinsics_inv @ pixel_coords                                   # (B, 3, H*W)
    rays = rays / rays.norm(dim=1, keepdim=True)
    return rays.transpose(1, 2).reshape(batch_size, height, width, 3)

class UniDepthV1(nn.Module):
    """unidepth.models.UniDepthV1 (reduced): infer() builds camera rays from the intrinsics."""
    def __init__(self):
        super().__init__()
        self.pixel_encoder = nn.Conv2d(3, 8, 3, padding=1)
        self.depth_head = nn.Conv2d(8 + 3, 1, 1)

    @torch.no_grad()
    def infer(self, rgb, intrinsics):
        if rgb.ndim == 3:
            rgb = rgb.unsqueeze(0)
        if intrinsics.ndim == 2:
            intrinsics = intrinsics.unsqueeze(0)
        H, W = rgb.shape[-2:]
        rays = generate_rays(intrinsics, (H, W)).permute(0, 3, 1, 2)
        feats = self.pixel_encoder(rgb.float() / 255.0)
        depth = self.depth_head(torch.cat([feats, rays], dim=1)).exp()
        return {"depth": depth, "intrinsics": intrinsics}

model = UniDepthV1().eval()
rgb_torch = torch.randint(0, 256, (3, 24, 32), dtype=torch.uint8)
intrinsics_torch = torch.from_numpy(
    np.array([[860.729675, 0.0, 645.56073], [0.0, 859.77063, 353.41275], [0.0, 0.0, 1.0]])
)
'''
CELL = '''
predictions = model.infer(rgb_torch, intrinsics_torch)
'''
EXPECT_ERROR = ("expected scalar type Float but found Double",
                "expected scalar type Double but found Float")
CULPRITS = ["intrinsics_torch"]
FIX = "namespace"
REFERENCE_FIX = '''
intrinsics_torch = intrinsics_torch.float()
'''
REFERENCE_EDIT = None
CLEAN = False
