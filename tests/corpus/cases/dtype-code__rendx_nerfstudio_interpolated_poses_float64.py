"""nerfstudio `ns-render interpolate`: `get_interpolated_poses_many` returns float64 camera-to-worlds and ray generation fails against float32 data.

Source: https://github.com/nerfstudio-project/nerfstudio/pull/1532
Issue #1530: "RuntimeError: expected scalar type Float but found Double when render interpolate on
latest version, but it works well when render spiral". The interpolation helper builds the new poses
with numpy/scipy (float64) and wraps them in a tensor without a dtype, so the interpolated Cameras
carry float64 `camera_to_worlds` while everything else (directions, the field) is float32. The PR
("Adding conversion to torch.float32 in get_interpolated_poses_many") converts the result.
Stand-ins: `get_interpolated_poses_many` (slerp reduced to a linear blend + re-orthonormalisation),
`get_interpolated_camera_path`, Cameras.generate_rays and a tiny field; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Cameras:
    def __init__(self, camera_to_worlds, fx, fy, cx, cy):
        self.camera_to_worlds, self.fx, self.fy, self.cx, self.cy = camera_to_worlds, fx, fy, cx, cy
    def generate_rays(self, camera_indices, H=8, W=8):
        c2w = self.camera_to_worlds[camera_indices]
        j, i = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
        directions = torch.stack([(i - self.cx) / self.fx, -(j - self.cy) / self.fy, -torch.ones_like(i)], -1)
        directions = directions.reshape(-1, 3) @ c2w[:3, :3].T
        origins = c2w[:3, 3].expand(directions.shape)
        return origins, directions / directions.norm(dim=-1, keepdim=True)

def get_interpolated_poses_many(poses, Ks, steps_per_transition=10):
    traj, k_interp = [], []
    for idx in range(poses.shape[0] - 1):
        pose_a, pose_b = poses[idx].cpu().numpy(), poses[idx + 1].cpu().numpy()
        for t in np.linspace(0, 1, steps_per_transition, endpoint=False):
            rot = (1 - t) * pose_a[:3, :3] + t * pose_b[:3, :3]
            u, _, vt = np.linalg.svd(rot)
            trans = (1 - t) * pose_a[:3, 3] + t * pose_b[:3, 3]
            traj.append(np.concatenate([u @ vt, trans[:, None]], 1))
            k_interp.append((1 - t) * Ks[idx] + t * Ks[idx + 1])
    traj = np.stack(traj, axis=0)
    k_interp = torch.stack(k_interp, dim=0)
    return torch.tensor(traj), k_interp

def get_interpolated_camera_path(cameras, steps):
    Ks = torch.stack([torch.tensor([[cameras.fx, 0, cameras.cx], [0, cameras.fy, cameras.cy], [0, 0, 1.0]])] * len(cameras.camera_to_worlds))
    poses, Ks = get_interpolated_poses_many(cameras.camera_to_worlds, Ks, steps_per_transition=steps)
    return Cameras(camera_to_worlds=poses, fx=Ks[0, 0, 0].item(), fy=Ks[0, 1, 1].item(), cx=Ks[0, 0, 2].item(), cy=Ks[0, 1, 2].item())

class NerfactoField(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 4))
    def forward(self, positions, directions):
        return self.mlp(torch.cat([positions, directions], -1))

field = NerfactoField()
c2ws = torch.eye(4)[:3].repeat(3, 1, 1)
c2ws[:, 2, 3] = torch.tensor([1.0, 2.0, 3.0])
cameras = Cameras(camera_to_worlds=c2ws, fx=8.0, fy=8.0, cx=4.0, cy=4.0)    # the train cameras, float32
camera_path = get_interpolated_camera_path(cameras, steps=5)
'''
CELL = '''
frames = []
for camera_idx in range(len(camera_path.camera_to_worlds)):
    origins, directions = camera_path.generate_rays(camera_indices=camera_idx)
    with torch.no_grad():
        frames.append(field(origins + 0.5 * directions, directions))
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["camera_path"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.tensor(traj), k_interp",
                  "return torch.tensor(traj, dtype=torch.float32), k_interp")
CLEAN = False
