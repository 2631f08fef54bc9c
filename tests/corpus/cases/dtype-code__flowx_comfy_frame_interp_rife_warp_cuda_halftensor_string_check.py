"""ComfyUI-Frame-Interpolation RIFE `warp()`: the grid is cast to half only when `tenInput.type() == 'torch.cuda.HalfTensor'`, so bf16 (or non-CUDA fp16) frames meet a float32 grid.

Source: https://github.com/Fannovel16/ComfyUI-Frame-Interpolation/pull/115
The PR adds a float16/bfloat16 precision option to the RIFE node and fixes `warp()` in
`rife_arch.py`: it "replaced the `HalfTensor` string check with `g.to(tenInput.dtype)`, correctly
handling bfloat16 and float16 on non-CUDA devices". With the old check a bf16 model gets a float32
grid and `grid_sample` raises "expected input and grid to have same dtype". Stand-in: `warp` as in
rife_arch.py with the real F.grid_sample, a two-conv IFBlock; run on the CPU in bfloat16 (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

backwarp_tenGrid = {}

def warp(tenInput, tenFlow):
    k = (str(tenFlow.device), str(tenFlow.size()))
    if k not in backwarp_tenGrid:
        tenHorizontal = torch.linspace(-1.0, 1.0, tenFlow.shape[3]).view(1, 1, 1, tenFlow.shape[3]).expand(tenFlow.shape[0], -1, tenFlow.shape[2], -1)
        tenVertical = torch.linspace(-1.0, 1.0, tenFlow.shape[2]).view(1, 1, tenFlow.shape[2], 1).expand(tenFlow.shape[0], -1, -1, tenFlow.shape[3])
        backwarp_tenGrid[k] = torch.cat([tenHorizontal, tenVertical], 1).to(tenFlow.device)
    tenFlow = torch.cat([tenFlow[:, 0:1, :, :] / ((tenInput.shape[3] - 1.0) / 2.0),
                         tenFlow[:, 1:2, :, :] / ((tenInput.shape[2] - 1.0) / 2.0)], 1)
    g = (backwarp_tenGrid[k] + tenFlow).permute(0, 2, 3, 1)
    if tenInput.type() == "torch.cuda.HalfTensor":
        g = g.half()
    return F.grid_sample(input=tenInput, grid=g, mode="bilinear", padding_mode="border", align_corners=True)

class IFNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Conv2d(7, 16, 3, padding=1), nn.PReLU(16), nn.Conv2d(16, 5, 3, padding=1))

    def forward(self, img0, img1, timestep):
        out = self.block(torch.cat([img0, img1, timestep], 1))
        flow, mask = out[:, :4], torch.sigmoid(out[:, 4:5])
        return warp(img0, flow[:, :2]) * mask + warp(img1, flow[:, 2:4]) * (1 - mask)

dtype = torch.bfloat16                  # the node's new "dtype" widget
model = IFNet().eval().to(dtype)
frame_0 = torch.rand(1, 3, 32, 48).to(dtype)
frame_1 = torch.rand(1, 3, 32, 48).to(dtype)
timestep = (frame_0[:, :1].clone() * 0 + 1) * 0.5
'''
CELL = '''
with torch.inference_mode():
    middle = model(frame_0, frame_1, timestep)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    if tenInput.type() == "torch.cuda.HalfTensor":
        g = g.half()''', '''    g = g.to(tenInput.dtype)''')
CLEAN = False
