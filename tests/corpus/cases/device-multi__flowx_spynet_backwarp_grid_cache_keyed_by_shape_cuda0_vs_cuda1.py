"""pytorch-spynet `backwarp`: the global grid cache is keyed by the flow's shape only, so a second GPU reuses the cuda:0 grid.

Source: https://github.com/sniklaus/pytorch-spynet/issues/17
The user ran SPyNet on several GPUs and got "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cuda:1!" in `grid_sample(..., grid=(Backward_tensorGrid[
str(tensorFlow.size())] + tensorFlow)...)`. `backwarp_tenGrid` is a module-level dict keyed by
`str(tenFlow.shape)`: the grid built for the replica on cuda:0 is found again for the same-shaped
flow on cuda:1. sniklaus's answer rewrote `backwarp` so that the cached grid is made for the flow's
device. Stand-in: `backwarp` as in run.py (F.grid_sample replaced by a same-device elementwise
stand-in the simulation can run), the pyramid network reduced to one basic level; two copies of the
network, one per GPU, as DataParallel's replicas.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
import torch.nn as nn

backwarp_tenGrid = {}

def grid_sample(input, grid):
    # stand-in for torch.nn.functional.grid_sample(..., mode='bilinear', padding_mode='border', align_corners=False)
    return input * grid.permute(0, 3, 1, 2).mean(1, keepdim=True)

def backwarp(tenInput, tenFlow):
    if str(tenFlow.shape) not in backwarp_tenGrid:
        tenHor = torch.linspace(-1.0 + (1.0 / tenFlow.shape[3]), 1.0 - (1.0 / tenFlow.shape[3]), tenFlow.shape[3],
                                device=tenFlow.device).view(1, 1, 1, -1).expand(-1, -1, tenFlow.shape[2], -1)
        tenVer = torch.linspace(-1.0 + (1.0 / tenFlow.shape[2]), 1.0 - (1.0 / tenFlow.shape[2]), tenFlow.shape[2],
                                device=tenFlow.device).view(1, 1, -1, 1).expand(-1, -1, -1, tenFlow.shape[3])
        backwarp_tenGrid[str(tenFlow.shape)] = torch.cat([tenHor, tenVer], 1)
    tenFlow = torch.cat([tenFlow[:, 0:1, :, :] / ((tenInput.shape[3] - 1.0) / 2.0),
                         tenFlow[:, 1:2, :, :] / ((tenInput.shape[2] - 1.0) / 2.0)], 1)
    return grid_sample(tenInput, (backwarp_tenGrid[str(tenFlow.shape)] + tenFlow).permute(0, 2, 3, 1))

class Basic(nn.Module):
    def __init__(self):
        super().__init__()
        self.netBasic = nn.Sequential(
            nn.Conv2d(8, 32, 7, padding=3), nn.ReLU(inplace=False),
            nn.Conv2d(32, 2, 7, padding=3))

    def forward(self, tenInput):
        return self.netBasic(tenInput)

class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.netBasic = Basic()

    def forward(self, tenOne, tenTwo):
        tenFlow = tenOne.new_zeros([tenOne.shape[0], 2, tenOne.shape[2], tenOne.shape[3]])
        tenWarped = backwarp(tenInput=tenTwo, tenFlow=tenFlow)
        return self.netBasic(torch.cat([tenOne, tenWarped, tenFlow], 1)) + tenFlow

base = Network().eval()
replicas = [copy.deepcopy(base).to("cuda:0"), copy.deepcopy(base).to("cuda:1")]
tenOne = torch.rand(2, 3, 32, 48)
tenTwo = torch.rand(2, 3, 32, 48)
flow_0 = replicas[0](tenOne.to("cuda:0"), tenTwo.to("cuda:0"))      # first GPU: fills the cache
chunk_one, chunk_two = tenOne.to("cuda:1"), tenTwo.to("cuda:1")     # second GPU's chunk, same shape
'''
CELL = '''
flow_1 = replicas[1](chunk_one, chunk_two)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["backwarp_tenGrid"]
FIX = "namespace"
REFERENCE_FIX = '''
backwarp_tenGrid.clear()
'''
REFERENCE_EDIT = None
CLEAN = False
