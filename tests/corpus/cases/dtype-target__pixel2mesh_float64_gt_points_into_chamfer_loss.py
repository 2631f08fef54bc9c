"""Pixel2Mesh (PyTorch): ground-truth point clouds generated as float64 meet float32 mesh predictions in the Chamfer loss.

Source: https://github.com/noahcao/Pixel2Mesh/issues/17
"RuntimeError: expected scalar type Float but found Double" in `P2MLoss.forward` at
`dist1, dist2, idx1, idx2 = self.chamfer_dist(gt_coord, pred_coord[i])`. Asked to print the dtypes,
the user found `gt_coord: torch.float64`, `pred_coord: torch.float32`; the maintainer: "the chamfer
loss expects float32 but instead it found float64 ... A hot-fix ... is to convert gt_coord to
float32 by gt_coord = gt_coord.float()". The user's own ShapeNet points were saved as float64.
Stand-in: the Chamfer distance with `torch.cdist` (the repo's CUDA extension dispatches on float),
a tiny graph-conv deformation head in place of the P2M network, the loss's Chamfer and edge terms.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class ChamferDist(nn.Module):
    def forward(self, xyz1, xyz2):
        d = torch.cdist(xyz1, xyz2) ** 2
        dist1, idx1 = d.min(dim=2)
        dist2, idx2 = d.min(dim=1)
        return dist1, dist2, idx1, idx2

class P2MModel(nn.Module):
    def __init__(self, n_verts=156, feat=32):
        super().__init__()
        self.register_buffer("init_pts", torch.randn(n_verts, 3) * 0.1)
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 4, 4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                     nn.Linear(16, feat))
        self.deform = nn.ModuleList([nn.Linear(3 + feat, 3) for _ in range(3)])

    def forward(self, images):
        f = self.encoder(images)
        x = self.init_pts.unsqueeze(0).expand(images.shape[0], -1, -1)
        pred_coord = []
        for layer in self.deform:
            x = x + layer(torch.cat([x, f.unsqueeze(1).expand(-1, x.shape[1], -1)], -1))
            pred_coord.append(x)
        return {"pred_coord": pred_coord}

class P2MLoss(nn.Module):
    def __init__(self, weights):
        super().__init__()
        self.weights = weights
        self.chamfer_dist = ChamferDist()

    def forward(self, outputs, targets):
        chamfer_loss = 0.
        gt_coord = targets["points"]
        pred_coord = outputs["pred_coord"]
        for i in range(3):
            dist1, dist2, idx1, idx2 = self.chamfer_dist(gt_coord, pred_coord[i])
            chamfer_loss += self.weights["chamfer"][i] * (torch.mean(dist1) + self.weights["chamfer_opposite"] * torch.mean(dist2))
        return chamfer_loss

model = P2MModel()
criterion = P2MLoss({"chamfer": [1.0, 1.0, 1.0], "chamfer_opposite": 1.0})
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
# the user's own data generation: points sampled from the meshes and saved with numpy's default float64
rng = np.random.default_rng(0)
batch = {"images": torch.rand(4, 3, 224, 224),
         "points": torch.from_numpy(rng.standard_normal((4, 2466, 3)) * 0.2)}
'''
CELL = '''
out = model(batch["images"])
loss = criterion(out, batch)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Float but found Double", "expected scalar type Double but found Float")
CULPRITS = ["batch['points']"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["points"] = batch["points"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
