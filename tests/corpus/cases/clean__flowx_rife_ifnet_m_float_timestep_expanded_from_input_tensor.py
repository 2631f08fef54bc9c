"""RIFE `IFNet_m.forward`: a Python float `timestep` becomes a tensor map with `(x[:, :1].clone() * 0 + 1) * timestep`, so it is born on the frames' GPU and dtype.

Source: https://github.com/hzwer/ECCV2022-RIFE/blob/main/model/IFNet_m.py
The arbitrary-timestep IFNet takes `timestep=0.5` as a plain float and turns it into a [B, 1, H, W]
map derived from the input (a tensor `timestep` is `.repeat`ed instead), then concatenates it with
the frames in every IFBlock. Look-alike: a scalar from the CPU side mixed into a GPU half-precision
concatenation, correct because it is made from `x`. Stand-in: the forward's timestep handling and
two IFBlocks reduced to convs (F.grid_sample warping left out); the model and frames are half on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class IFBlock(nn.Module):
    def __init__(self, in_planes, c=16):
        super().__init__()
        self.conv0 = nn.Sequential(nn.Conv2d(in_planes, c, 3, padding=1), nn.LeakyReLU(0.2))
        self.lastconv = nn.Conv2d(c, 5, 3, padding=1)

    def forward(self, x):
        out = self.lastconv(self.conv0(x))
        return out[:, :4], out[:, 4:5]

class IFNet_m(nn.Module):
    def __init__(self):
        super().__init__()
        self.block0 = IFBlock(6 + 1)
        self.block1 = IFBlock(6 + 1 + 4 + 1)

    def forward(self, x, timestep=0.5):
        if not torch.is_tensor(timestep):
            timestep = (x[:, :1].clone() * 0 + 1) * timestep
        else:
            timestep = timestep.repeat(1, 1, x.shape[2], x.shape[3])
        img0, img1 = x[:, :3], x[:, 3:6]
        flow, mask = self.block0(torch.cat((img0, img1, timestep), 1))
        flow_d, mask_d = self.block1(torch.cat((img0, img1, timestep, flow, mask), 1))
        flow, mask = flow + flow_d, torch.sigmoid(mask + mask_d)
        return img0 * mask + img1 * (1 - mask), flow

model = IFNet_m().half().to("cuda:0").eval()
img0 = torch.rand(1, 3, 64, 96).half().to("cuda:0")
img1 = torch.rand(1, 3, 64, 96).half().to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    frames = [model(torch.cat((img0, img1), 1), timestep=t)[0] for t in (0.25, 0.5, 0.75)]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
