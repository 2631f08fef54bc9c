"""unimatch/GMFlow `flow_warp`: the pixel grid is built on the CPU by `coords_grid(b, h, w)` and moved with `.to(flow.device)` before it is added to the flow.

Source: https://github.com/autonomousvision/unimatch/blob/master/unimatch/geometry.py
`flow_warp(feature, flow)` does `grid = coords_grid(b, h, w).to(flow.device) + flow` and then
`bilinear_sample(feature, grid)`, which normalises the grid and calls F.grid_sample. Look-alike: a
grid made without a device inside a helper of a GPU model, on purpose moved to the flow's device on
the next line. Stand-in: `coords_grid`, `flow_warp` (F.grid_sample replaced by a same-device
elementwise stand-in the simulation can run) and a one-conv flow regressor on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def coords_grid(b, h, w, homogeneous=False, device=None):
    y, x = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    stacks = [x, y]
    if homogeneous:
        stacks.append(torch.ones_like(x))
    grid = torch.stack(stacks, dim=0).float()
    grid = grid[None].repeat(b, 1, 1, 1)
    if device is not None:
        grid = grid.to(device)
    return grid

def grid_sample(img, grid):
    # stand-in for F.grid_sample(img, grid, mode='bilinear', padding_mode='zeros', align_corners=True)
    return img * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

def bilinear_sample(img, sample_coords):
    b, _, h, w = sample_coords.shape
    x_grid = 2 * sample_coords[:, 0] / (w - 1) - 1
    y_grid = 2 * sample_coords[:, 1] / (h - 1) - 1
    grid = torch.stack([x_grid, y_grid], dim=-1)
    return grid_sample(img, grid)

def flow_warp(feature, flow):
    b, c, h, w = feature.size()
    grid = coords_grid(b, h, w).to(flow.device) + flow
    return bilinear_sample(feature, grid)

class FlowHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 32, 3, padding=1)
        self.regress = nn.Conv2d(64, 2, 3, padding=1)

    def forward(self, img0, img1):
        feature0, feature1 = self.backbone(img0), self.backbone(img1)
        flow = self.regress(torch.cat([feature0, feature1], 1))
        feature1_warped = flow_warp(feature1, flow)
        return flow, (feature0 - feature1_warped).abs().mean()

device = torch.device("cuda:0")
model = FlowHead().to(device).eval()
img0 = torch.rand(1, 3, 40, 56).to(device)
img1 = torch.rand(1, 3, 40, 56).to(device)
'''
CELL = '''
with torch.no_grad():
    flow_pred, photometric = model(img0, img1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
