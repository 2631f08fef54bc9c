"""RAFT under mixed precision: the encoders run in autocast, but the feature maps are cast back to float32 before the correlation volume and lookup.

Source: https://github.com/princeton-vl/RAFT/issues/54
"Why not use amp in CorrBlock?": zachteed explains that the flow fields must stay single precision,
and that grid sampling a half tensor with single-precision coordinates is not supported, "so both the
coordinates and correlation are kept at single precision". Look-alike: mixed dtypes by design, the
reduced-precision encoder output meets float32 coords only after `fmap1.float()`. Stand-in: RAFT's
forward (fnet under autocast, `.float()`, CorrBlock with real F.grid_sample lookup) with tiny
encoders; autocast on the CPU in bfloat16.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def coords_grid(batch, ht, wd, device):
    coords = torch.meshgrid(torch.arange(ht, device=device), torch.arange(wd, device=device), indexing="ij")
    coords = torch.stack(coords[::-1], dim=0).float()
    return coords[None].repeat(batch, 1, 1, 1)

def bilinear_sampler(img, coords):
    H, W = img.shape[-2:]
    xgrid, ygrid = coords.split([1, 1], dim=-1)
    xgrid = 2 * xgrid / (W - 1) - 1
    ygrid = 2 * ygrid / (H - 1) - 1
    grid = torch.cat([xgrid, ygrid], dim=-1)
    return F.grid_sample(img, grid, align_corners=True)

class CorrBlock:
    def __init__(self, fmap1, fmap2, radius=2):
        self.radius = radius
        batch, dim, ht, wd = fmap1.shape
        corr = torch.matmul(fmap1.view(batch, dim, ht * wd).transpose(1, 2), fmap2.view(batch, dim, ht * wd))
        self.corr = (corr / torch.sqrt(torch.tensor(dim).float())).reshape(batch * ht * wd, 1, ht, wd)

    def __call__(self, coords):
        r = self.radius
        coords = coords.permute(0, 2, 3, 1)
        batch, h1, w1, _ = coords.shape
        d = torch.linspace(-r, r, 2 * r + 1, device=coords.device)
        delta = torch.stack(torch.meshgrid(d, d, indexing="ij"), dim=-1)
        centroid = coords.reshape(batch * h1 * w1, 1, 1, 2)
        corr = bilinear_sampler(self.corr, centroid + delta.view(1, 2 * r + 1, 2 * r + 1, 2))
        return corr.view(batch, h1, w1, -1).permute(0, 3, 1, 2).contiguous().float()

class RAFT(nn.Module):
    def __init__(self, mixed_precision=True):
        super().__init__()
        self.mixed_precision = mixed_precision
        self.fnet = nn.Sequential(nn.Conv2d(3, 32, 7, stride=8, padding=3), nn.ReLU(), nn.Conv2d(32, 64, 1))
        self.update = nn.Conv2d(25 + 2, 2, 3, padding=1)

    def forward(self, image1, image2, iters=3):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.mixed_precision):
            fmap1, fmap2 = self.fnet(image1), self.fnet(image2)
        fmap1 = fmap1.float()
        fmap2 = fmap2.float()
        corr_fn = CorrBlock(fmap1, fmap2)
        N, _, H, W = fmap1.shape
        coords0 = coords_grid(N, H, W, device=image1.device)
        coords1 = coords_grid(N, H, W, device=image1.device)
        for _ in range(iters):
            corr = corr_fn(coords1.detach())
            flow = coords1 - coords0
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.mixed_precision):
                delta_flow = self.update(torch.cat([corr, flow], 1))
            coords1 = coords1 + delta_flow.float()
        return coords1 - coords0

model = RAFT(mixed_precision=True).eval()
image1 = torch.rand(1, 3, 64, 96) * 255
image2 = torch.rand(1, 3, 64, 96) * 255
'''
CELL = '''
with torch.no_grad():
    flow_low = model(2 * (image1 / 255.0) - 1.0, 2 * (image2 / 255.0) - 1.0, iters=3)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
