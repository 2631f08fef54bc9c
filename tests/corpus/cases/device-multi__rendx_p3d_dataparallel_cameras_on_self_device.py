"""PyTorch3D under `nn.DataParallel`: the model builds its cameras in `forward` with `device=self.device`, so the replica on cuda:1 renders with cuda:0 cameras.

Source: https://github.com/facebookresearch/pytorch3d/issues/213
"How to rendering with multi-gpu by using torch.nn.DataParallel": `Net1.__init__` stores
`self.device = device` (cuda:0) and `forward` creates `SfMPerspectiveCameras(focal_length=...,
principal_point=..., R=R, T=T, device=self.device)` from the scattered `cam_paras` before calling the
renderer. DataParallel copies the plain `self.device` attribute into every replica, so the replica on
cuda:1 gets its R/T on cuda:1 but builds its cameras on cuda:0 and the rasterizer mixes the two.
The camera device must follow the replica's inputs (`device=R.device`). Stand-ins: the cameras (kept
as TensorProperties moved to `device`), a mesh block and a renderer reduced to projecting the
vertices; DataParallel reduced to running a replica per GPU on its half of the batch.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class SfMPerspectiveCameras:
    def __init__(self, focal_length, principal_point, R, T, device="cpu"):
        self.focal_length = focal_length.to(device)
        self.principal_point = principal_point.to(device)
        self.R, self.T = R.to(device), T.to(device)
    def transform_points(self, verts):
        view = torch.bmm(verts, self.R) + self.T[:, None, :]
        return self.focal_length[:, None, :] * view[..., :2] / view[..., 2:] + self.principal_point[:, None, :]

class MeshRenderer(nn.Module):
    def forward(self, verts, cameras):
        xy = cameras.transform_points(verts)
        return xy, (xy.abs() < 1).all(-1).float()

class Net1(nn.Module):
    def __init__(self, n_verts, device):
        super().__init__()
        self.device = device
        self.base_verts = nn.Parameter(torch.randn(n_verts, 3) * 0.1)
        self.renderer = MeshRenderer()

    def mesh_block(self, N):
        return self.base_verts.unsqueeze(0).expand(N, -1, -1)

    def forward(self, cam_paras, target_images):
        focal_length = cam_paras['focal_length']
        principal_point = cam_paras['principal_point']
        R = cam_paras['R']
        T = cam_paras['T']
        cameras = SfMPerspectiveCameras(focal_length=focal_length, principal_point=principal_point,
                                        R=R, T=T, device=self.device)
        N = len(R)
        verts = self.mesh_block(N)
        _img, _mask = self.renderer(verts, cameras=cameras)
        return ((_mask - target_images.flatten(1)[:, :_mask.shape[1]]) ** 2).mean()

class DataParallel(nn.Module):
    """torch.nn.DataParallel reduced: one replica per device (a copy of the module, attributes
    included), the batch scattered along dim 0."""
    def __init__(self, module_fn, device_ids):
        super().__init__()
        self.device_ids = device_ids
        self.replicas = nn.ModuleList([module_fn().to(f"cuda:{d}") for d in device_ids])
    def forward(self, cam_paras, target_images):
        n = len(self.device_ids)
        outs = []
        for i, (d, replica) in enumerate(zip(self.device_ids, self.replicas)):
            part = {k: v.chunk(n)[i].to(f"cuda:{d}") for k, v in cam_paras.items()}
            outs.append(replica(part, target_images.chunk(n)[i].to(f"cuda:{d}")).to("cuda:0"))
        return torch.stack(outs).mean()

device = torch.device("cuda:0")
torch.manual_seed(0)
net = DataParallel(lambda: Net1(n_verts=100, device=device), device_ids=[0, 1])
B = 4
cam_paras = {
    'focal_length': torch.full((B, 2), 2.0, device=device),
    'principal_point': torch.zeros(B, 2, device=device),
    'R': torch.eye(3, device=device).expand(B, 3, 3).contiguous(),
    'T': torch.tensor([0.0, 0.0, 3.0]).to(device).expand(B, 3).contiguous(),
}
target_images = torch.rand(B, 16, 16, device=device)
'''
CELL = '''
with torch.no_grad():
    loss = net(cam_paras, target_images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.replicas[1]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("R=R, T=T, device=self.device)", "R=R, T=T, device=R.device)")
CLEAN = False
