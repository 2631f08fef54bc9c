"""PSMNet `disparityregression`: the disparity values are a plain tensor attribute created on the GPU in `__init__`, not a buffer, and the single-GPU model uses it as is.

Source: https://github.com/JiaRenChang/PSMNet/issues/157
The thread discusses `disparityregression`, whose `__init__` does `self.disp = torch.Tensor(np.reshape(
np.array(range(maxdisp)), [1, maxdisp, 1, 1])).cuda()` and whose forward computes
`torch.sum(x * self.disp, 1)` (the user showed the `.repeat(...)` is unnecessary thanks to
broadcasting; the maintainer agreed). Look-alike: a tensor `Module.to()` never sees, yet already on the
model's GPU, so the soft-argmin runs. Stand-in: `.cuda()` written `.to("cuda:0")` (what it resolves to),
the concatenation cost volume and stacked-hourglass 3D filtering reduced to a 2D conv giving
`maxdisp` cost channels (fake cuda cannot run Conv3d/trilinear upsampling); softmax on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class disparityregression(nn.Module):
    def __init__(self, maxdisp):
        super().__init__()
        self.disp = torch.Tensor(np.reshape(np.array(range(maxdisp)), [1, maxdisp, 1, 1])).to("cuda:0")   # .cuda()

    def forward(self, x):
        out = torch.sum(x * self.disp.data, 1, keepdim=True)
        return out

class PSMNet(nn.Module):
    def __init__(self, maxdisp=48):
        super().__init__()
        self.maxdisp = maxdisp
        self.feature_extraction = nn.Conv2d(3, 8, 3, padding=1)
        self.classif = nn.Conv2d(16, maxdisp, 3, padding=1)
        self.regression = disparityregression(maxdisp)

    def forward(self, left, right):
        refimg_fea, targetimg_fea = self.feature_extraction(left), self.feature_extraction(right)
        cost = self.classif(torch.cat([refimg_fea, targetimg_fea], 1))     # [B, maxdisp, H, W]
        pred = F.softmax(cost, dim=1)
        return self.regression(pred)

model = PSMNet(maxdisp=48)
model.to("cuda:0").eval()                # model.cuda()
imgL = torch.rand(1, 3, 64, 128).to("cuda:0")
imgR = torch.rand(1, 3, 64, 128).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    disp = model(imgL, imgR)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
