"""HashNeRF-pytorch: the blender bounding box is computed from CPU `c2w` matrices against ray directions made on cuda.

Source: https://github.com/yashbhalgat/HashNeRF-pytorch/issues/41
`load_blender_data` -> `get_bbox3d_for_blenderobj` -> `get_rays`: `rays_d = directions @ c2w[:3, :3].T`
raised "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu! (when checking argument for argument mat2 in method wrapper_CUDA_mm)". run_nerf.py sets the
default tensor type to CUDA, so `get_ray_directions` builds its grid on the GPU, while each frame's
`c2w = torch.FloatTensor(frame["transform_matrix"])` is a CPU tensor. The user: "directions.device
is cuda, while c2w's device is cpu. Use c2w = c2w.to('cuda:0')". Stand-in: `torch.set_default_device`
for the default tensor type, `torch.tensor(..., device="cpu")` for the CPU-only `torch.FloatTensor`,
kornia's `create_meshgrid` by a meshgrid, the corner rays picked with `select`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import numpy as np
import torch

torch.set_default_device("cuda:0")     # run_nerf.py: torch.set_default_tensor_type('torch.cuda.FloatTensor')

def create_meshgrid(H, W):
    ys, xs = torch.meshgrid(torch.linspace(0, H - 1, H), torch.linspace(0, W - 1, W), indexing="ij")
    return torch.stack([xs, ys], -1).unsqueeze(0)

def get_ray_directions(H, W, focal):
    grid = create_meshgrid(H, W).squeeze(0)
    i, j = grid.unbind(-1)
    directions = torch.stack([(i - W / 2) / focal, -(j - H / 2) / focal, -torch.ones_like(i)], -1)
    return directions

def get_rays(directions, c2w):
    rays_d = directions @ c2w.narrow(0, 0, 3).narrow(1, 0, 3).T     # c2w[:3, :3].T
    rays_d = rays_d / torch.norm(rays_d, dim=-1, keepdim=True)
    rays_o = c2w.narrow(0, 0, 3).select(1, 3).expand(rays_d.shape)   # c2w[:3, 3]
    return rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)

def get_bbox3d_for_blenderobj(camera_transforms, H, W, near=2.0, far=6.0):
    camera_angle_x = float(camera_transforms['camera_angle_x'])
    focal = 0.5 * W / np.tan(0.5 * camera_angle_x)
    directions = get_ray_directions(H, W, focal)
    points = []
    for frame in camera_transforms["frames"]:
        c2w = torch.tensor(frame["transform_matrix"], dtype=torch.float32, device="cpu")  # torch.FloatTensor(...)
        rays_o, rays_d = get_rays(directions, c2w)
        for i in [0, W - 1, H * W - W, H * W - 1]:
            points.append(rays_o.select(0, i) + near * rays_d.select(0, i))
            points.append(rays_o.select(0, i) + far * rays_d.select(0, i))
    pts = torch.stack(points)
    return pts.amin(0) - 1.0, pts.amax(0) + 1.0

def pose(theta):
    c, s = math.cos(theta), math.sin(theta)
    return [[c, 0.0, s, 4.0 * s], [0.0, 1.0, 0.0, 0.0], [-s, 0.0, c, 4.0 * c], [0.0, 0.0, 0.0, 1.0]]

metas = {"train": {"camera_angle_x": 0.6911,
                   "frames": [{"transform_matrix": pose(t)} for t in (0.0, 1.5, 3.0)]}}
H, W = 80, 80                                                      # half_res of a small scene
'''
CELL = '''
bounding_box = get_bbox3d_for_blenderobj(metas["train"], H, W, near=2.0, far=6.0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["c2w"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        rays_o, rays_d = get_rays(directions, c2w)\n',
                  '        c2w = c2w.to("cuda:0")\n        rays_o, rays_d = get_rays(directions, c2w)\n')
CLEAN = False
