"""U-2-Net background remover script: `net` is moved to CUDA, but `removeBg` builds the image tensor on the CPU.

Source: https://github.com/hassancs91/Image-Background-Remover-Python/issues/4
Running the repository's `__init__.py` failed at `d1, d2, d3, d4, d5, d6, d7 = net(image)` inside
`removeBg` with "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the
same". The script loads U2NET and calls `net.cuda()` when CUDA is available, while `removeBg` turns the
decoded picture into `image = image.type(torch.FloatTensor)` and never moves it; the answer in the thread
points at that line (81) to put the image on the GPU. Stand-ins: U2NET reduced to REBNCONV blocks with
seven side outputs, the cv2/skimage decode+resize replaced by a numpy array. SIM meta: "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
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

def removeBg(img):
    # processing (cv2.imdecode + skimage transform.resize elided: img is already 320x320x3 in [0, 1])
    image = img
    tmpImg = np.zeros((image.shape[0], image.shape[1], 3))
    tmpImg[:, :, 0] = (image[:, :, 0] - 0.485) / 0.229
    tmpImg[:, :, 1] = (image[:, :, 1] - 0.456) / 0.224
    tmpImg[:, :, 2] = (image[:, :, 2] - 0.406) / 0.225
    tmpImg = tmpImg.transpose((2, 0, 1))
    tmpImg = np.expand_dims(tmpImg, 0)
    image = torch.from_numpy(tmpImg)

    image = image.type(torch.FloatTensor)
    image = Variable(image)

    d1, d2, d3, d4, d5, d6, d7 = net(image)
    pred = d1[:, 0, :, :]
    ma = torch.max(pred)
    mi = torch.min(pred)
    dn = (pred - mi) / (ma - mi)
    return dn                               # save_output(...) elided

# ------- Load Trained Model --------
net = U2NET(3, 1)
net.to("meta")                              # `if torch.cuda.is_available(): net.cuda()`
net.eval()
img = np.random.rand(32, 32, 3)
'''
CELL = '''
pred = removeBg(img)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "Input type")
CULPRITS = ["removeBg"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("image = image.type(torch.FloatTensor)",
                  "image = image.type(torch.FloatTensor).to(next(net.parameters()).device)")
CLEAN = False
