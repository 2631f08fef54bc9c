"""Practical-RIFE warplayer: the backward-warp grid is built on a module-level `device` that only knows CUDA or CPU.

Source: https://github.com/hzwer/Practical-RIFE/pull/156
On an Apple Silicon Mac the frames and flow are on mps, but `model/warplayer.py` sets
`device = torch.device("cuda" if torch.cuda.is_available() else "cpu")` at import time and builds
`backwarp_tenGrid[k]` with `torch.linspace(..., device=device)`, so the grid lands on the CPU and
`backwarp_tenGrid[k] + tenFlow` raises "Expected all tensors to be on the same device, ... mps:0 and
cpu!". The PR makes `device` pick mps and builds the grid on `tenFlow.device`. The failed call has already cached the CPU grid in `backwarp_tenGrid`, so
the fix also drops that cache. Stand-in: warplayer's
`warp` (F.grid_sample replaced by a same-device
elementwise stand-in, which the simulation can run) and a two-conv flow estimator instead of IFNet; cuda:0 stands in for mps.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")   # warplayer.py, import time
backwarp_tenGrid = {}

def grid_sample(input, grid):
    # stand-in for F.grid_sample(..., mode='bilinear', padding_mode='border', align_corners=True)
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

def warp(tenInput, tenFlow):
    k = (str(tenFlow.device), str(tenFlow.size()))
    if k not in backwarp_tenGrid:
        tenHorizontal = torch.linspace(-1.0, 1.0, tenFlow.shape[3], device=device).view(
            1, 1, 1, tenFlow.shape[3]).expand(tenFlow.shape[0], -1, tenFlow.shape[2], -1)
        tenVertical = torch.linspace(-1.0, 1.0, tenFlow.shape[2], device=device).view(
            1, 1, tenFlow.shape[2], 1).expand(tenFlow.shape[0], -1, -1, tenFlow.shape[3])
        backwarp_tenGrid[k] = torch.cat([tenHorizontal, tenVertical], 1)
    tenFlow = torch.cat([tenFlow[:, 0:1, :, :] / ((tenInput.shape[3] - 1.0) / 2.0),
                         tenFlow[:, 1:2, :, :] / ((tenInput.shape[2] - 1.0) / 2.0)], 1)
    g = (backwarp_tenGrid[k] + tenFlow).permute(0, 2, 3, 1)
    return grid_sample(tenInput, g)

class FlowNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv0 = nn.Conv2d(6, 16, 3, padding=1)
        self.conv1 = nn.Conv2d(16, 4, 3, padding=1)

    def forward(self, img0, img1):
        flow = self.conv1(torch.relu(self.conv0(torch.cat((img0, img1), 1))))
        warped_img0 = warp(img0, flow[:, :2])
        warped_img1 = warp(img1, flow[:, 2:4])
        return (warped_img0 + warped_img1) / 2

run_device = torch.device("cuda:0")     # inference_video.py picked "mps"
flownet = FlowNet().to(run_device).eval()
I0 = torch.rand(1, 3, 64, 96).to(run_device)
I1 = torch.rand(1, 3, 64, 96).to(run_device)
'''
CELL = '''
middle = flownet(I0, I1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["backwarp_tenGrid"]
FIX = "namespace"
REFERENCE_FIX = '''
device = torch.device("cuda:0")
backwarp_tenGrid.clear()
'''
REFERENCE_EDIT = None
CLEAN = False
