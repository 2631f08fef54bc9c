"""Look-alike: Shap-E's `decode_latent_mesh` builds its pan cameras from numpy arrays and moves them to the latent's device; the camera's resolution/fov are CPU tensors moved inside `camera_rays`.

Source: https://github.com/openai/shap-e/blob/main/shap_e/util/notebooks.py
(with shap_e/models/nn/camera.py). `create_pan_cameras(size, device)` stacks numpy origins and axes and calls
`torch.from_numpy(...).float().to(device)`; `decode_latent_mesh` passes `latent.device`.
`DifferentiableProjectiveCamera.camera_rays` makes `resolution()`/`fov()` with `torch.from_numpy` (CPU) and moves
them with `.to(flat.device)`; `image_coords()` is a CPU `arange` moved by the caller. Everything that starts on
the CPU is moved before it meets the CUDA latent: nothing to report.
Stand-ins: the camera (slicing written as `narrow`), `create_pan_cameras` verbatim, and a transmitter whose
`bottleneck_to_params` projects the latent to an implicit MLP queried at points along the rays (STF mesh
extraction omitted).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
import numpy as np
import torch
import torch.nn as nn

@dataclass
class DifferentiableProjectiveCamera:
    origin: torch.Tensor
    x: torch.Tensor
    y: torch.Tensor
    z: torch.Tensor
    width: int
    height: int
    x_fov: float
    y_fov: float

    def resolution(self):
        return torch.from_numpy(np.array([self.width, self.height], dtype=np.float32))

    def fov(self):
        return torch.from_numpy(np.array([self.x_fov, self.y_fov], dtype=np.float32))

    def image_coords(self):
        pixel_indices = torch.arange(self.height * self.width)
        return torch.stack([pixel_indices % self.width,
                            torch.div(pixel_indices, self.width, rounding_mode="trunc")], axis=1)

    def camera_rays(self, coords):
        batch_size, *shape, n_coords = coords.shape
        flat = coords.view(batch_size, -1, 2)
        res = self.resolution().to(flat.device)
        fov = self.fov().to(flat.device)
        fracs = (flat.float() / (res - 1)) * 2 - 1
        fracs = fracs * torch.tan(fov / 2)
        directions = (self.z.view(batch_size, 1, 3)
                      + self.x.view(batch_size, 1, 3) * fracs.narrow(-1, 0, 1)
                      + self.y.view(batch_size, 1, 3) * fracs.narrow(-1, 1, 1))
        directions = directions / directions.norm(dim=-1, keepdim=True)
        origins = self.origin.view(batch_size, 1, 3).expand(batch_size, directions.shape[1], 3)
        return torch.stack([origins, directions], dim=2).view(batch_size, *shape, 2, 3)

@dataclass
class DifferentiableCameraBatch:
    shape: tuple
    flat_camera: DifferentiableProjectiveCamera

def create_pan_cameras(size, device):
    origins, xs, ys, zs = [], [], [], []
    for theta in np.linspace(0, 2 * np.pi, num=20):
        z = np.array([np.sin(theta), np.cos(theta), -0.5])
        z /= np.sqrt(np.sum(z**2))
        origin = -z * 4
        x = np.array([np.cos(theta), -np.sin(theta), 0.0])
        y = np.cross(z, x)
        origins.append(origin); xs.append(x); ys.append(y); zs.append(z)
    return DifferentiableCameraBatch(
        shape=(1, len(xs)),
        flat_camera=DifferentiableProjectiveCamera(
            origin=torch.from_numpy(np.stack(origins, axis=0)).float().to(device),
            x=torch.from_numpy(np.stack(xs, axis=0)).float().to(device),
            y=torch.from_numpy(np.stack(ys, axis=0)).float().to(device),
            z=torch.from_numpy(np.stack(zs, axis=0)).float().to(device),
            width=size, height=size, x_fov=0.7, y_fov=0.7,
        ),
    )

class Transmitter(nn.Module):
    """stand-in: bottleneck_to_params + an implicit field sampled along camera rays"""
    def __init__(self, d_latent=64, hidden=16):
        super().__init__()
        self.hidden = hidden
        self.to_params = nn.Linear(d_latent, 3 * hidden + hidden * 4)

    def bottleneck_to_params(self, latent):
        p = self.to_params(latent)
        return {"w1": p.narrow(-1, 0, 3 * self.hidden).view(-1, 3, self.hidden),
                "w2": p.narrow(-1, 3 * self.hidden, 4 * self.hidden).view(-1, self.hidden, 4)}

    def render_views(self, cameras, params, n_samples=8):
        cam = cameras.flat_camera
        device = params["w1"].device
        coords = cam.image_coords().to(device).unsqueeze(0).expand(cam.origin.shape[0], -1, -1)
        rays = cam.camera_rays(coords)                                   # [20, HW, 2, 3]
        ts = torch.linspace(2.0, 6.0, n_samples, device=device).view(1, 1, -1, 1)
        pts = rays.narrow(2, 0, 1) + ts * rays.narrow(2, 1, 1)           # [20, HW, n, 3]
        h = torch.relu(pts.reshape(-1, 3) @ params["w1"].squeeze(0))
        return (h @ params["w2"].squeeze(0)).view(*pts.shape[:-1], 4)

def decode_latent_mesh(xm, latent):
    return xm.render_views(create_pan_cameras(2, latent.device), params=xm.bottleneck_to_params(latent[None]))

device = torch.device("cuda:0")
xm = Transmitter().to(device)                       # load_model('transmitter', device=device)
latents = torch.randn(2, 64, device=device)         # sample_latents(...) output
latent = latents.narrow(0, 0, 1).squeeze(0)
'''
CELL = '''
with torch.no_grad():
    field = decode_latent_mesh(xm, latent)
print(field.shape, field.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
