"""Look-alike: PyTorch3D's camera-position-optimization tutorial registers a NumPy-made reference silhouette as a buffer and moves the model afterwards.

Source: https://github.com/facebookresearch/pytorch3d/blob/main/docs/tutorials/camera_position_optimization_with_differentiable_rendering.ipynb
The tutorial makes `image_ref = (silhouette[..., :3].max(-1) != 1).astype(np.float32)` in NumPy, and
`Model.__init__` does `image_ref = torch.from_numpy((image_ref[..., :3].max(-1) != 1).astype(np.float32))`
then `self.register_buffer('image_ref', image_ref)` (a CPU tensor), while the camera position is an
`nn.Parameter(torch.from_numpy(np.array([3.0, 6.9, +2.5], dtype=np.float32)).to(meshes.device))`.
`model = Model(meshes=teapot_mesh, renderer=silhouette_renderer, image_ref=image_ref).to(device)` moves
the buffer, so `forward` (`look_at_rotation(..., device=self.device)`, `torch.bmm`, the render and
`torch.sum((image[..., 3] - self.image_ref) ** 2)`) runs on cuda:0. Stand-ins: `look_at_rotation`,
the mesh holder and a silhouette renderer reduced to a soft point splat (`[None, :]` written as `unsqueeze`,
`image[..., 3]` as `select`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def look_at_rotation(camera_position, at=((0, 0, 0),), up=((0, 1, 0),), device="cpu"):
    at = torch.tensor(at, dtype=torch.float32, device=device)
    up = torch.tensor(up, dtype=torch.float32, device=device)
    z_axis = F.normalize(at - camera_position, eps=1e-5)
    x_axis = F.normalize(torch.cross(up.expand_as(z_axis), z_axis, dim=1), eps=1e-5)
    y_axis = F.normalize(torch.cross(z_axis, x_axis, dim=1), eps=1e-5)
    R = torch.cat((x_axis.unsqueeze(1), y_axis.unsqueeze(1), z_axis.unsqueeze(1)), dim=1)
    return R.transpose(1, 2)

class Meshes:
    def __init__(self, verts):
        self._verts = verts
    @property
    def device(self):
        return self._verts.device
    def clone(self):
        return Meshes(self._verts.clone())
    def verts_padded(self):
        return self._verts

class SilhouetteRenderer(nn.Module):
    def __init__(self, image_size=32):
        super().__init__()
        self.image_size = image_size
    def forward(self, meshes_world, R, T):
        v = torch.bmm(meshes_world.verts_padded(), R) + T.unsqueeze(1)
        xy = v.narrow(-1, 0, 2) / v.narrow(-1, 2, 1).clamp(min=1e-3)
        s = torch.linspace(-1, 1, self.image_size, device=v.device)
        gy, gx = torch.meshgrid(s, s, indexing="ij")
        pix = torch.stack([gx, gy], -1).view(1, -1, 1, 2)
        alpha = torch.exp(-((pix - xy.unsqueeze(1)) ** 2).sum(-1) * 200).sum(-1).clamp(max=1.0)
        alpha = alpha.view(-1, self.image_size, self.image_size, 1)
        return torch.cat([torch.zeros_like(alpha).expand(-1, -1, -1, 3), alpha], -1)

class Model(nn.Module):
    def __init__(self, meshes, renderer, image_ref):
        super().__init__()
        self.meshes = meshes
        self.device = meshes.device
        self.renderer = renderer
        # Get the silhouette of the reference RGB image by finding all non-white pixel values.
        image_ref = torch.from_numpy((image_ref[..., :3].max(-1) != 1).astype(np.float32))
        self.register_buffer('image_ref', image_ref)
        # Create an optimizable parameter for the x, y, z position of the camera.
        self.camera_position = nn.Parameter(
            torch.from_numpy(np.array([3.0, 6.9, +2.5], dtype=np.float32)).to(meshes.device))

    def forward(self):
        R = look_at_rotation(self.camera_position.unsqueeze(0), device=self.device)  # (1, 3, 3)
        T = -torch.bmm(R.transpose(1, 2), self.camera_position.view(1, 3, 1)).squeeze(2)   # (1, 3)
        image = self.renderer(meshes_world=self.meshes.clone(), R=R, T=T)
        loss = torch.sum((image.select(-1, 3) - self.image_ref) ** 2)
        return loss, image

device = torch.device("cuda:0")
rng = np.random.default_rng(0)
teapot_mesh = Meshes(torch.randn(1, 200, 3, device=device) * 0.5)
silhouette_renderer = SilhouetteRenderer(image_size=32)
# the reference render, taken to NumPy in the tutorial
image_ref = np.where(rng.random((1, 32, 32, 4)) > 0.7, 0.0, 1.0).astype(np.float32)
'''
CELL = '''
model = Model(meshes=teapot_mesh, renderer=silhouette_renderer, image_ref=image_ref).to(device)
with torch.no_grad():
    loss, _ = model()
print(model.image_ref.device, loss.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
