"""GA-Net under DataParallel: `DisparityRegression` builds its disparity ramp in `__init__` with `.cuda()`, so the GPU 1 replica multiplies against a cuda:0 tensor.

Source: https://github.com/feihuzhang/GANet/issues/26
The user wrapped GANet in `DataParallel` and the forward hung/failed on multiple GPUs; one GPU worked.
They traced it themselves: they had activated the commented-out line
`self.disp = Variable(torch.Tensor(np.reshape(np.array(range(self.maxdisp)), [1, self.maxdisp, 1, 1])).cuda())`
in `DisparityRegression.__init__` (and commented the one in `forward`), "which caused the cuda device
error". A plain tensor attribute made with `.cuda()` lives on the default GPU (cuda:0); neither
`replicate()` nor `Module.to()` moves it, so the replica on device 1 computes `x * disp` with x on
cuda:1. Fix (the original code): build `disp` inside `forward` on the input's GPU
(`with torch.cuda.device_of(x): ... .cuda()`).
Stand-ins: `DisparityRegression` and `Disp` from libs/GANet/modules/GANet.py and models/GANet_deep.py
(`.cuda()` written `.to("cuda:0")`, the default device; `device_of(x)` + `.cuda()` written
`.to(x.device)`); the GPU 1 replica is a `Disp` moved with `.to("cuda:1")`, which, like DataParallel's
replicate(), moves parameters but not the plain `.disp` attribute.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class DisparityRegression(nn.Module):
    def __init__(self, maxdisp):
        super(DisparityRegression, self).__init__()
        self.maxdisp = maxdisp + 1
        # the user's change: this line, commented out in GANet, made active (.cuda() -> the default GPU)
        self.disp = torch.Tensor(np.reshape(np.array(range(self.maxdisp)), [1, self.maxdisp, 1, 1])).to("cuda:0")

    def forward(self, x):
        assert(x.is_contiguous() == True)
        disp = self.disp
        disp = disp.repeat(x.size()[0], 1, x.size()[2], x.size()[3])
        out = torch.sum(x * disp, 1)
        return out

class Disp(nn.Module):
    def __init__(self, maxdisp=192):
        super(Disp, self).__init__()
        self.maxdisp = maxdisp
        self.softmax = nn.Softmin(dim=1)
        self.disparity = DisparityRegression(maxdisp=self.maxdisp)
        self.conv32x1 = nn.Conv3d(32, 1, (3, 3, 3), (1, 1, 1), (1, 1, 1), bias=False)

    def forward(self, x):
        x = F.interpolate(self.conv32x1(x), [self.maxdisp+1, x.size()[3]*3, x.size()[4]*3], mode='trilinear', align_corners=False)
        x = torch.squeeze(x, 1)
        x = self.softmax(x)
        return self.disparity(x)

maxdisp = 24
# the copy of the disparity head that DataParallel runs on GPU 1: parameters on cuda:1
disp_head = Disp(maxdisp).to("cuda:1")
# the aggregated cost volume of that replica's half of the batch (B, 32, D/3, H/3, W/3)
cost = torch.randn(1, 32, maxdisp // 3 + 1, 8, 10, device="cuda:1")
'''
CELL = '''
disp0 = disp_head(cost)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["disp_head.disparity"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        disp = self.disp\n",
                  "        disp = torch.Tensor(np.reshape(np.array(range(self.maxdisp)), [1, self.maxdisp, 1, 1])).to(x.device)\n")
CLEAN = False
