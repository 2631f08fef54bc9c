"""Practical-RIFE `warplayer.warp`: a module-level grid cache shared by two GPUs, keyed by the flow's device and size, with each grid built on `tenFlow.device`.

Source: https://github.com/hzwer/Practical-RIFE/blob/main/model/warplayer.py
The current warplayer keeps `backwarp_tenGrid = {}` at module level, uses
`k = (str(tenFlow.device), str(tenFlow.size()))` and builds the `torch.linspace` grids with
`device=tenFlow.device`, so one dict holds a cuda:0 grid and a cuda:1 grid side by side. Look-alike:
a global tensor cache with entries on two GPUs, each model only ever reading its own. Stand-in:
`warp` (F.grid_sample replaced by a same-device elementwise stand-in) and a two-conv flow net, one
copy per GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
import torch.nn as nn

backwarp_tenGrid = {}

def grid_sample(input, grid):
    # stand-in for torch.nn.functional.grid_sample(..., mode='bilinear', padding_mode='border', align_corners=True)
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

def warp(tenInput, tenFlow):
    k = (str(tenFlow.device), str(tenFlow.size()))
    if k not in backwarp_tenGrid:
        tenHorizontal = torch.linspace(-1.0, 1.0, tenFlow.shape[3], device=tenFlow.device).view(
            1, 1, 1, tenFlow.shape[3]).expand(tenFlow.shape[0], -1, tenFlow.shape[2], -1)
        tenVertical = torch.linspace(-1.0, 1.0, tenFlow.shape[2], device=tenFlow.device).view(
            1, 1, tenFlow.shape[2], 1).expand(tenFlow.shape[0], -1, -1, tenFlow.shape[3])
        backwarp_tenGrid[k] = torch.cat([tenHorizontal, tenVertical], 1)
    tenFlow = torch.cat([tenFlow[:, 0:1, :, :] / ((tenInput.shape[3] - 1.0) / 2.0),
                         tenFlow[:, 1:2, :, :] / ((tenInput.shape[2] - 1.0) / 2.0)], 1)
    g = (backwarp_tenGrid[k] + tenFlow).permute(0, 2, 3, 1)
    return grid_sample(tenInput, g)

class IFNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv0 = nn.Conv2d(6, 16, 3, padding=1)
        self.conv1 = nn.Conv2d(16, 5, 3, padding=1)

    def forward(self, img0, img1):
        out = self.conv1(torch.relu(self.conv0(torch.cat((img0, img1), 1))))
        flow, mask = out[:, :4], torch.sigmoid(out[:, 4:5])
        return warp(img0, flow[:, :2]) * mask + warp(img1, flow[:, 2:4]) * (1 - mask)

flownet = IFNet().eval()
flownet_0 = copy.deepcopy(flownet).to("cuda:0")
flownet_1 = copy.deepcopy(flownet).to("cuda:1")
I0 = torch.rand(1, 3, 64, 96)
I1 = torch.rand(1, 3, 64, 96)
mid_0 = flownet_0(I0.to("cuda:0"), I1.to("cuda:0"))     # first half of the video on cuda:0
'''
CELL = '''
mid_1 = flownet_1(I0.to("cuda:1"), I1.to("cuda:1"))     # second half on cuda:1, same frame size
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
