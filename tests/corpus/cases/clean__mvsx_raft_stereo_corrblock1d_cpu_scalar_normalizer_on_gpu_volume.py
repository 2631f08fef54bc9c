"""RAFT-Stereo `CorrBlock1D`: the GPU correlation volume is divided by `torch.sqrt(torch.tensor(D).float())`, a 0-dim CPU tensor, and the lookup offsets are made on the CPU and moved with `.to(coords.device)`.

Source: https://github.com/princeton-vl/RAFT-Stereo/blob/main/core/corr.py
`CorrBlock1D.corr` computes `torch.einsum('aijk,aijh->ajkh', fmap1, fmap2)` on the GPU features and
returns `corr / torch.sqrt(torch.tensor(D).float())`: the normalizer is a fresh 0-dim CPU tensor,
which PyTorch lets meet a cuda tensor. `__call__` builds `dx = torch.linspace(-r, r, 2*r+1)` on the
CPU and moves it with `.to(coords.device)` before adding it to the GPU coordinates, which come from
`coords_grid(N, H, W).to(img.device)` in `RAFTStereo.initialize_flow`. Look-alike: CPU tensors made
inside the forward next to GPU tensors, one a 0-dim scalar (allowed), one moved explicitly.
Stand-ins: the GPU simulated with meta; `bilinear_sampler` without its `torch.unique(ygrid)` assertion
(the simulation has no data); slices written with `narrow`; random features in place of `fnet`.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

device = torch.device("meta")   # the GPU, simulated with meta

def bilinear_sampler(img, coords, mode='bilinear', mask=False):
    """ Wrapper for grid_sample, uses pixel coordinates """
    H, W = img.shape[-2:]
    xgrid, ygrid = coords.split([1,1], dim=-1)
    xgrid = 2*xgrid/(W-1) - 1
    # assert torch.unique(ygrid).numel() == 1 and H == 1 # This is a stereo problem
    grid = torch.cat([xgrid, ygrid], dim=-1)
    img = F.grid_sample(img, grid, align_corners=True)
    return img

def coords_grid(batch, ht, wd):
    coords = torch.meshgrid(torch.arange(ht), torch.arange(wd), indexing="ij")
    coords = torch.stack(coords[::-1], dim=0).float()
    return coords[None].repeat(batch, 1, 1, 1)

class CorrBlock1D:
    def __init__(self, fmap1, fmap2, num_levels=4, radius=4):
        self.num_levels = num_levels
        self.radius = radius
        self.corr_pyramid = []

        # all pairs correlation
        corr = CorrBlock1D.corr(fmap1, fmap2)

        batch, h1, w1, dim, w2 = corr.shape
        corr = corr.reshape(batch*h1*w1, dim, 1, w2)

        self.corr_pyramid.append(corr)
        for i in range(self.num_levels):
            corr = F.avg_pool2d(corr, [1,2], stride=[1,2])
            self.corr_pyramid.append(corr)

    def __call__(self, coords):
        r = self.radius
        coords = coords.narrow(1, 0, 1).permute(0, 2, 3, 1)      # coords[:, :1]
        batch, h1, w1, _ = coords.shape

        out_pyramid = []
        for i in range(self.num_levels):
            corr = self.corr_pyramid[i]
            dx = torch.linspace(-r, r, 2*r+1)
            dx = dx.view(1, 1, 2*r+1, 1).to(coords.device)
            x0 = dx + coords.reshape(batch*h1*w1, 1, 1, 1) / 2**i
            y0 = torch.zeros_like(x0)

            coords_lvl = torch.cat([x0,y0], dim=-1)
            corr = bilinear_sampler(corr, coords_lvl)
            corr = corr.view(batch, h1, w1, -1)
            out_pyramid.append(corr)

        out = torch.cat(out_pyramid, dim=-1)
        return out.permute(0, 3, 1, 2).contiguous().float()

    @staticmethod
    def corr(fmap1, fmap2):
        B, D, H, W1 = fmap1.shape
        _, _, _, W2 = fmap2.shape
        fmap1 = fmap1.view(B, D, H, W1)
        fmap2 = fmap2.view(B, D, H, W2)
        corr = torch.einsum('aijk,aijh->ajkh', fmap1, fmap2)
        corr = corr.reshape(B, H, W1, 1, W2).contiguous()
        return corr / torch.sqrt(torch.tensor(D).float())

# 1/4-resolution features of the left and right image (fnet output), on the GPU
fmap1 = torch.randn(1, 64, 12, 32, device=device)
fmap2 = torch.randn(1, 64, 12, 32, device=device)
net0 = torch.randn(1, 128, 12, 32, device=device)      # net_list[0]
'''
CELL = '''
corr_fn = CorrBlock1D(fmap1.float(), fmap2.float(), radius=4, num_levels=4)
N, _, H, W = net0.shape
coords0 = coords_grid(N, H, W).to(net0.device)            # initialize_flow
coords1 = coords_grid(N, H, W).to(net0.device)
corr = corr_fn(coords1.detach())                          # index correlation volume
flow = coords1 - coords0
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
