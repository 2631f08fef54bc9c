"""PyTorch3D-style Chamfer loss on padded GPU point clouds: default lengths and padding masks are made on the points' device.

Source: https://github.com/facebookresearch/pytorch3d/blob/main/pytorch3d/loss/chamfer.py
Look-alike: `_handle_pointcloud_input` fills missing `x_lengths` with
`torch.full((N,), P, dtype=torch.int64, device=points.device)`, and `chamfer_distance` builds its padding
masks from `torch.arange(P1, device=x.device)` compared with the lengths; the per-point distances are then
zeroed on the padding and averaged per cloud with `x_lengths` as divisor. The user's own `y_lengths`
comes from the loader and is moved with the batch. Stand-ins: `knn_points` (K=1) via `torch.cdist`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def _handle_pointcloud_input(points, lengths):
    N, P, D = points.shape
    if lengths is None:
        lengths = torch.full((N,), P, dtype=torch.int64, device=points.device)
    return points, lengths

def knn_points_k1(x, y):
    d = torch.cdist(x, y) ** 2
    dists, idx = d.min(dim=2)
    return dists, idx

def chamfer_distance(x, y, x_lengths=None, y_lengths=None):
    x, x_lengths = _handle_pointcloud_input(x, x_lengths)
    y, y_lengths = _handle_pointcloud_input(y, y_lengths)
    N, P1, D = x.shape
    P2 = y.shape[1]
    x_mask = torch.arange(P1, device=x.device).unsqueeze(0) >= x_lengths.unsqueeze(1)
    y_mask = torch.arange(P2, device=y.device).unsqueeze(0) >= y_lengths.unsqueeze(1)
    cham_x, _ = knn_points_k1(x, y)
    cham_y, _ = knn_points_k1(y, x)
    cham_x = cham_x.masked_fill(x_mask, 0.0)
    cham_y = cham_y.masked_fill(y_mask, 0.0)
    cham_x = cham_x.sum(1) / x_lengths.to(cham_x.dtype)
    cham_y = cham_y.sum(1) / y_lengths.to(cham_y.dtype)
    return (cham_x + cham_y).mean()

device = torch.device("cuda:0")
pred_points = torch.randn(4, 256, 3, device=device)
batch = {"points": torch.randn(4, 300, 3), "lengths": torch.tensor([300, 280, 250, 300])}
batch = {k: v.to(device) for k, v in batch.items()}
'''
CELL = '''
loss = chamfer_distance(pred_points, batch["points"], y_lengths=batch["lengths"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
