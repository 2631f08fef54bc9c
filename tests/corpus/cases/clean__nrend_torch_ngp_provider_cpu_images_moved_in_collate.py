"""Look-alike: torch-ngp's NeRFDataset keeps poses and images on the CPU unless `--preload`, and moves each batch in `collate`.

Source: https://github.com/ashawkey/torch-ngp/blob/main/nerf/provider.py
`NeRFDataset.__init__` stacks `self.poses = torch.from_numpy(np.stack(self.poses, axis=0))` and
`self.images = torch.from_numpy(np.stack(self.images, axis=0))` on the CPU and only moves them
`if self.preload:`. Without preload, `collate(index)` does `poses = self.poses[index].to(self.device)`,
builds rays on the device with `get_rays(poses, self.intrinsics, H, W, self.num_rays, ...)`, and
`images = self.images[index].to(self.device)` before gathering the sampled pixels with `rays['inds']`.
A CPU dataset beside a CUDA NeRF is the default layout. Stand-ins: the dataset (synthetic images and
poses), the DataLoader reduced to a shuffled generator of `collate([i])` batches, `get_rays` reduced
to random pixel sampling, and a tiny density/colour MLP.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def get_rays(poses, intrinsics, H, W, N=-1, error_map=None, patch_size=1):
    device = poses.device
    B = poses.shape[0]
    fx, fy, cx, cy = intrinsics
    inds = torch.randint(0, H * W, size=[N], device=device).expand([B, N])
    i = (inds % W).float() + 0.5
    j = torch.div(inds, W, rounding_mode="floor").float() + 0.5
    directions = torch.stack([(i - cx) / fx, (j - cy) / fy, torch.ones_like(i)], dim=-1)
    directions = directions / torch.norm(directions, dim=-1, keepdim=True)
    rays_d = directions @ poses.narrow(1, 0, 3).narrow(2, 0, 3).transpose(-1, -2)
    rays_o = poses.narrow(1, 0, 3).narrow(2, 3, 1).transpose(-1, -2).expand(rays_d.shape)
    return {"rays_o": rays_o, "rays_d": rays_d, "inds": inds}

class NeRFDataset:
    def __init__(self, device, type="train", n=5, H=20, W=24, num_rays=256, preload=False):
        self.device, self.type, self.preload = device, type, preload
        self.training = self.type in ["train", "all", "trainval"]
        self.num_rays = num_rays if self.training else -1
        self.H, self.W = H, W
        rng = np.random.default_rng(0)
        poses = [np.eye(4, dtype=np.float32) for _ in range(n)]
        images = [rng.random((H, W, 3)).astype(np.float32) for _ in range(n)]
        self.poses = torch.from_numpy(np.stack(poses, axis=0))      # [N, 4, 4]
        self.images = torch.from_numpy(np.stack(images, axis=0))    # [N, H, W, C]
        if self.preload:
            self.poses = self.poses.to(self.device)
            self.images = self.images.to(torch.float).to(self.device)
        self.intrinsics = np.array([20.0, 20.0, W / 2, H / 2])
        self.error_map = None

    def collate(self, index):
        B = len(index)
        poses = self.poses[index].to(self.device)  # [B, 4, 4]
        rays = get_rays(poses, self.intrinsics, self.H, self.W, self.num_rays, self.error_map)
        results = {"H": self.H, "W": self.W, "rays_o": rays["rays_o"], "rays_d": rays["rays_d"]}
        if self.images is not None:
            images = self.images[index].to(self.device)  # [B, H, W, 3/4]
            if self.training:
                C = images.shape[-1]
                images = torch.gather(images.view(B, -1, C), 1, torch.stack(C * [rays["inds"]], -1))  # [B, N, 3/4]
            results["images"] = images
        return results

class NeRFNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.sigma_net = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
        self.color_net = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))
    def render(self, rays_o, rays_d):
        z = torch.linspace(0.1, 2.0, 16, device=rays_o.device)
        pts = rays_o.unsqueeze(-2) + rays_d.unsqueeze(-2) * z.view(-1, 1)
        sigma = torch.relu(self.sigma_net(pts))
        rgbs = torch.sigmoid(self.color_net(torch.cat([pts, rays_d.unsqueeze(-2).expand_as(pts)], -1)))
        weights = 1 - torch.exp(-sigma * (2.0 - 0.1) / 16)
        return {"image": (weights * rgbs).sum(-2)}

device = torch.device("cuda:0")
model = NeRFNetwork().to(device)
train_dataset = NeRFDataset(device, type="train", preload=False)
# dataloader(): DataLoader(list(range(len(self.poses))), batch_size=1, collate_fn=self.collate, shuffle=self.training)
train_loader = (train_dataset.collate([i]) for i in np.random.default_rng(1).permutation(len(train_dataset.poses)).tolist())
'''
CELL = '''
data = next(train_loader)
with torch.no_grad():
    outputs = model.render(data["rays_o"], data["rays_d"])
    loss = torch.nn.functional.mse_loss(outputs["image"], data["images"])
print(train_dataset.images.device, data["images"].device, loss.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
