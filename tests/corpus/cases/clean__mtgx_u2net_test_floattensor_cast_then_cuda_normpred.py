"""U-2-Net's test script casts the batch with `.type(torch.FloatTensor)` and only then moves it to the GPU.

Source: https://github.com/xuebinqin/U-2-Net (u2net_test.py)
`u2net_test.py` loads U2NET, calls `net.cuda()` when CUDA is available, and for every batch from the
CPU DataLoader does `inputs_test = inputs_test.type(torch.FloatTensor)` (a CPU float type: the
`ToTensorLab` sample is float64) followed by `Variable(inputs_test.cuda())`, so the cast fixes the dtype
and the next line fixes the device. The side output `d1` is sliced and min-max normalised by `normPRED`
on the same device. Stand-ins: U2NET reduced to REBNCONV blocks with seven sigmoid side outputs, the
DataLoader sample a float64 tensor; `save_output` (which calls `.cpu()`) is left out. SIM meta: "meta"
plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

class REBNCONV(nn.Module):
    def __init__(self, in_ch=3, out_ch=3, dirate=1):
        super().__init__()
        self.conv_s1 = nn.Conv2d(in_ch, out_ch, 3, padding=1 * dirate, dilation=1 * dirate)
        self.bn_s1 = nn.BatchNorm2d(out_ch)
        self.relu_s1 = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.relu_s1(self.bn_s1(self.conv_s1(x)))

class U2NET(nn.Module):
    def __init__(self, in_ch=3, out_ch=1):
        super().__init__()
        self.stage1 = REBNCONV(in_ch, 8)
        self.stage2 = REBNCONV(8, 8, dirate=2)
        self.sides = nn.ModuleList([nn.Conv2d(8, out_ch, 3, padding=1) for _ in range(6)])
        self.outconv = nn.Conv2d(6 * out_ch, out_ch, 1)

    def forward(self, x):
        hx = self.stage2(self.stage1(x))
        ds = [side(hx) for side in self.sides]
        d0 = self.outconv(torch.cat(ds, 1))
        return tuple(torch.sigmoid(d) for d in [d0] + ds)

def normPRED(d):
    ma = torch.max(d)
    mi = torch.min(d)
    dn = (d - mi) / (ma - mi)
    return dn

net = U2NET(3, 1)
net.to("meta")                                        # `if torch.cuda.is_available(): net.cuda()`
net.eval()
data_test = {'image': torch.from_numpy(np.random.rand(1, 3, 64, 64))}   # ToTensorLab(flag=0): float64
'''
CELL = '''
inputs_test = data_test['image']
inputs_test = inputs_test.type(torch.FloatTensor)
inputs_test = Variable(inputs_test.to("meta"))        # Variable(inputs_test.cuda())
with torch.no_grad():
    d1, d2, d3, d4, d5, d6, d7 = net(inputs_test)
pred = d1[:, 0, :, :]
pred = normPRED(pred)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
