"""MaskFlownet-Pytorch `MaskFlownet_S.warp`: the sampling grid and the validity mask are moved with `.cuda()`, i.e. to the default GPU, so a network on cuda:1 fails.

Source: https://github.com/cattaneod/MaskFlownet-Pytorch/pull/5
"Fixing cuda index when used with multiple GPUs" (commit "fix incorrect cuda index"): `warp` builds the
mesh grid with `torch.arange` on the CPU, then `if x.is_cuda: grid = grid.cuda()`, and the occlusion
mask with `torch.autograd.Variable(torch.ones(x.size())).cuda()`. `.cuda()` means the current device
(cuda:0), so when the model and images live on another GPU, `Variable(grid) + torch.flip(flo, [1])`
mixes cuda:0 and cuda:1. The PR replaces both with `device = x.device; grid = grid.to(device)` and
`.to(device)` for the mask. Stand-in: `.cuda()` written `.to("cuda:0")` (what it resolves to), the
network cut to one feature conv and one flow head before the final warp of `forward`,
F.grid_sample replaced by a same-device elementwise stand-in, and the in-place grid normalisation
and mask thresholding written out of place.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Variable

def grid_sample(input, grid, align_corners=True):
    # stand-in for nn.functional.grid_sample(input, grid, align_corners=True)
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

class MaskFlownet_S(nn.Module):
    def __init__(self, config=None, **kwargs):
        super().__init__()
        self.scale = 20.0
        self.conv1 = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.LeakyReLU(0.1))
        self.pred_flow2 = nn.Conv2d(16, 2, 3, padding=1)

    def warp(self, x, flo):
        """
        warp an image/tensor (im2) back to im1, according to the optical flow
        x: [B, C, H, W] (im2)
        flo: [B, 2, H, W] flow
        """
        B, C, H, W = x.size()
        # mesh grid
        xx = torch.arange(0, W).view(1,-1).repeat(H,1)
        yy = torch.arange(0, H).view(-1,1).repeat(1,W)
        xx = xx.view(1,1,H,W).repeat(B,1,1,1)
        yy = yy.view(1,1,H,W).repeat(B,1,1,1)
        grid = torch.cat((xx,yy),1).float()

        if x.is_cuda:
            grid = grid.to("cuda:0")   # grid.cuda()
        # vgrid = Variable(grid) + flo
        vgrid = Variable(grid) + torch.flip(flo, [1])

        # scale grid to [-1,1]
        vgrid = torch.cat([2.0*vgrid.narrow(1, 0, 1) / max(W-1,1)-1.0,
                           2.0*vgrid.narrow(1, 1, 1) / max(H-1,1)-1.0], 1)

        vgrid = vgrid.permute(0,2,3,1)
        output = grid_sample(x, vgrid, align_corners=True)
        mask = torch.autograd.Variable(torch.ones(x.size())).to("cuda:0")   # .cuda()
        mask = grid_sample(mask, vgrid, align_corners=True)

        mask = (mask >= 0.9999).float()   # mask[mask<0.9999] = 0; mask[mask>0] = 1

        return output*mask

    def forward(self, im1, im2):
        x = self.conv1(torch.cat([im1, im2], 1))
        flow2 = self.pred_flow2(x)
        predictions = [flow2 * self.scale]
        c40 = self.warp(im2, flow2 * self.scale)
        return predictions, [torch.sigmoid(flow2.mean(1, keepdim=True))], [im1, c40]

device = torch.device("cuda:1")       # the second GPU (predict.py: torch.device("cuda" ...))
net = MaskFlownet_S(None)
net = net.to(device).eval()
im0 = torch.rand(1, 3, 64, 64).to(device)
im1 = torch.rand(1, 3, 64, 64).to(device)
'''
CELL = '''
with torch.no_grad():
    pred, flows, warpeds = net(im0, im1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        if x.is_cuda:
            grid = grid.to("cuda:0")   # grid.cuda()
        # vgrid = Variable(grid) + flo
        vgrid = Variable(grid) + torch.flip(flo, [1])

        # scale grid to [-1,1]
        vgrid = torch.cat([2.0*vgrid.narrow(1, 0, 1) / max(W-1,1)-1.0,
                           2.0*vgrid.narrow(1, 1, 1) / max(H-1,1)-1.0], 1)

        vgrid = vgrid.permute(0,2,3,1)
        output = grid_sample(x, vgrid, align_corners=True)
        mask = torch.autograd.Variable(torch.ones(x.size())).to("cuda:0")   # .cuda()""", """        device = x.device
        grid = grid.to(device)
        # vgrid = Variable(grid) + flo
        vgrid = Variable(grid) + torch.flip(flo, [1])

        # scale grid to [-1,1]
        vgrid = torch.cat([2.0*vgrid.narrow(1, 0, 1) / max(W-1,1)-1.0,
                           2.0*vgrid.narrow(1, 1, 1) / max(H-1,1)-1.0], 1)

        vgrid = vgrid.permute(0,2,3,1)
        output = grid_sample(x, vgrid, align_corners=True)
        mask = torch.autograd.Variable(torch.ones(x.size())).to(device)""")
CLEAN = False
