"""A block added to mmdetection's FPN neck is kept in a Python list, so `model.cuda()` skips it.

Source: https://github.com/open-mmlab/mmdetection/issues/638
"when i add a block in mmdetection/mmdet/models/necks/fpn.py, i got an error: RuntimeError: Input
type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same ... the data
flow is gpu_data, but my block parameters is cpu_data." The resolution in the thread: "I forget to
add `self.extra_convs = nn.Sequential(*self.extra_convs)`" - convs appended to a plain list are
not registered submodules, so the detector's `.cuda()` never moves them. Stand-in: a two-level FPN
with ModuleList lateral/fpn convs plus the user's list of extra conv+GN+ReLU blocks, inside a toy detector;
`.cuda()` is written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class FPN(nn.Module):
    def __init__(self, in_channels=(16, 32), out_channels=8, num_extra=1):
        super(FPN, self).__init__()
        self.lateral_convs = nn.ModuleList()
        self.fpn_convs = nn.ModuleList()
        for c in in_channels:
            self.lateral_convs.append(nn.Conv2d(c, out_channels, 1))
            self.fpn_convs.append(nn.Conv2d(out_channels, out_channels, 3, padding=1))
        self.extra_convs = []                      # the user's added block
        for i in range(num_extra):
            self.extra_convs.append(nn.Sequential(       # a ConvModule: conv + GN + ReLU
                nn.Conv2d(out_channels, out_channels, 3, stride=2, padding=1, bias=False),
                nn.GroupNorm(4, out_channels), nn.ReLU(inplace=True)))

    def forward(self, inputs):
        laterals = [lateral_conv(inputs[i]) for i, lateral_conv in enumerate(self.lateral_convs)]
        laterals[0] = laterals[0] + F.interpolate(laterals[1], scale_factor=2, mode="nearest")
        outs = [self.fpn_convs[i](laterals[i]) for i in range(len(laterals))]
        for extra_conv in self.extra_convs:
            outs.append(extra_conv(outs[-1]))
        return tuple(outs)

class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 16, 3, stride=2, padding=1),
                                       nn.Conv2d(16, 32, 3, stride=2, padding=1)])
        self.neck = FPN()
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, img):
        feats, x = [], img
        for layer in self.backbone:
            x = F.relu(layer(x))
            feats.append(x)
        return [self.head(f) for f in self.neck(feats)]

model = Detector().to("cuda:0")          # model.cuda()
model.eval()
img = torch.randn(2, 3, 64, 64, device="cuda:0")
'''
CELL = '''
outs = model(img)
'''
EXPECT_ERROR = ("Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same",
                "Expected all tensors to be on the same device",
                "should be the same")
CULPRITS = ["model.neck.extra_convs"]
FIX = "namespace"
REFERENCE_FIX = '''
model.neck.extra_convs = nn.Sequential(*model.neck.extra_convs).to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
