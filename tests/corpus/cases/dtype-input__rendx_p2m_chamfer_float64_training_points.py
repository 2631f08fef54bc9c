"""Pixel2Mesh-Pytorch: the chamfer loss's CUDA extension gets float64 ground-truth points from self-generated training data.

Source: https://github.com/Tong-ZHAO/Pixel2Mesh-Pytorch/issues/11
`python train.py` failed in `model/chamfer/dist_chamfer.py` at
`chamfer.forward(xyz1, xyz2, dist1, dist2, idx1, idx2)` with "expected scalar type Float but found
Double". The user had written their own script to generate the training data; the maintainer: "change
the type of your input to torch.float32"; the user converted the generated data to float32 and it
worked. Stand-ins: the dataset returning the saved numpy arrays as tensors, a tiny mesh-deformation
model, and `chamferDist` whose kernel is reduced to a batched squared-distance (the extension's
kernels are float-only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class chamferDist(nn.Module):
    # the extension's autograd.Function, its CUDA kernel reduced to a batched squared distance
    def forward(self, input1, input2):
        xyz1, xyz2 = input1, input2
        # chamfer.forward(xyz1, xyz2, dist1, dist2, idx1, idx2) reads both clouds as float
        d = (xyz1 * xyz1).sum(-1, keepdim=True) - 2 * torch.bmm(xyz1, xyz2.transpose(1, 2)) \\
            + (xyz2 * xyz2).sum(-1)[:, None, :]
        dist1, idx1 = d.min(2)
        dist2, idx2 = d.min(1)
        return dist1, dist2

class ShapeNetDataset(torch.utils.data.Dataset):
    def __init__(self, n_items=4):
        rng = np.random.RandomState(0)
        # the user's own data-generation script saved the point clouds with numpy's default float64
        self.items = [(rng.rand(3, 64, 64).astype(np.float32), rng.rand(500, 3), rng.rand(500, 3))
                      for _ in range(n_items)]
    def __len__(self): return len(self.items)
    def __getitem__(self, i):
        img, pts, normal = self.items[i]
        return torch.from_numpy(img), torch.from_numpy(pts), torch.from_numpy(normal)

class P2M(nn.Module):
    def __init__(self, n_verts=156):
        super().__init__()
        self.init_pts = nn.Parameter(torch.rand(n_verts, 3) - 0.5, requires_grad=False)
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 4, 4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.deform = nn.Linear(8 + 3, 3)
    def forward(self, img):
        f = self.encoder(img)
        x = self.init_pts.expand(img.shape[0], -1, -1)
        return x + self.deform(torch.cat([f[:, None, :].expand(-1, x.shape[1], -1), x], -1))

dataset = ShapeNetDataset()
dataloader = torch.utils.data.DataLoader(dataset, batch_size=2, shuffle=False)
model = P2M()
chamfer = chamferDist()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
img, pts, normal = next(iter(dataloader))
'''
CELL = '''
pred_pts = model(img)
dist1, dist2 = chamfer(pts, pred_pts)
loss = dist1.mean() + dist2.mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type", "same dtype")
CULPRITS = ["pts"]
FIX = "namespace"
REFERENCE_FIX = '''
pts = pts.float()
'''
REFERENCE_EDIT = None
CLEAN = False
