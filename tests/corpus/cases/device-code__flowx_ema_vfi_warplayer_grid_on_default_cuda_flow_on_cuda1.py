"""EMA-VFI `warplayer.warp`: the grid is built on the module-level `device` (the default GPU) while the flow is on another GPU.

Source: https://github.com/zdyshine/Video-Frame-Interpolation-Summary/pull/3
"fix bug in ema_vfi": when the user split videos across several GPUs, "the backwarp_tenGrid[k] is
located at cuda:0, and the tenFlow may be located at cuda:x (x>0)". EMA-VFI's warplayer picks
`device = torch.device("cuda")` at import time and builds both `torch.linspace` grids with
`device=device`, so even though the cache key includes the flow's device, the grid made for a
cuda:1 flow lives on cuda:0. The fix builds the grid on `tenFlow.device`. Stand-in: warplayer's
`warp` (F.grid_sample replaced by a same-device elementwise stand-in) and a two-conv flow head
instead of EMA-VFI's transformer; `device` is written "cuda:0", what "cuda" resolves to.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("cuda:0")          # warplayer.py: torch.device("cuda" if torch.cuda.is_available() else "cpu")
backwarp_tenGrid = {}

def grid_sample(input, grid):
    # stand-in for torch.nn.functional.grid_sample(..., mode='bilinear', padding_mode='border', align_corners=True)
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

def warp(tenInput, tenFlow):
    k = (str(tenFlow.device), str(tenFlow.size()))
    if k not in backwarp_tenGrid:
        tenHorizontal = torch.linspace(-1.0, 1.0, tenFlow.shape[3], device=device).view(1, 1, 1, tenFlow.shape[3]).expand(tenFlow.shape[0], -1, tenFlow.shape[2], -1)
        tenVertical = torch.linspace(-1.0, 1.0, tenFlow.shape[2], device=device).view(1, 1, tenFlow.shape[2], 1).expand(tenFlow.shape[0], -1, -1, tenFlow.shape[3])
        backwarp_tenGrid[k] = torch.cat([tenHorizontal, tenVertical], 1)
    tenFlow = torch.cat([tenFlow[:, 0:1, :, :] / ((tenInput.shape[3] - 1.0) / 2.0),
                         tenFlow[:, 1:2, :, :] / ((tenInput.shape[2] - 1.0) / 2.0)], 1)
    g = (backwarp_tenGrid[k] + tenFlow).permute(0, 2, 3, 1)
    return grid_sample(tenInput, g)

class MultiScaleFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 5, 3, padding=1))

    def forward(self, img0, img1):
        out = self.head(torch.cat([img0, img1], 1))
        flow, mask = out[:, :4], torch.sigmoid(out[:, 4:5])
        warped_img0 = warp(img0, flow[:, :2])
        warped_img1 = warp(img1, flow[:, 2:4])
        return warped_img0 * mask + warped_img1 * (1 - mask)

local_rank = 1                            # the video partition handled by the second GPU
model = MultiScaleFlow().to(f"cuda:{local_rank}").eval()
I0 = torch.rand(1, 3, 64, 96).to(f"cuda:{local_rank}")
I2 = torch.rand(1, 3, 64, 96).to(f"cuda:{local_rank}")
'''
CELL = '''
mid = model(I0, I2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["backwarp_tenGrid"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        tenHorizontal = torch.linspace(-1.0, 1.0, tenFlow.shape[3], device=device).view(1, 1, 1, tenFlow.shape[3]).expand(tenFlow.shape[0], -1, tenFlow.shape[2], -1)
        tenVertical = torch.linspace(-1.0, 1.0, tenFlow.shape[2], device=device)""", """        tenHorizontal = torch.linspace(-1.0, 1.0, tenFlow.shape[3], device=tenFlow.device).view(1, 1, 1, tenFlow.shape[3]).expand(tenFlow.shape[0], -1, tenFlow.shape[2], -1)
        tenVertical = torch.linspace(-1.0, 1.0, tenFlow.shape[2], device=tenFlow.device)""")
CLEAN = False
