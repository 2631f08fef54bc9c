"""A detection head caches its grids in a plain list; after model.to() they stay on the old device.

Source: https://github.com/ultralytics/yolov5/pull/5110
"model.to('cpu')" after a run on cuda:0, then "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and CPU!": Detect() keeps `self.grid` as a Python list of
tensors, built in forward on the input's device and only rebuilt when the shape changes, and
Module.to() never moves a list. Stand-in: a one-level Detect head with the same cache.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class Detect(nn.Module):
    def __init__(self, ch=8, no=6, nl=2):
        super().__init__()
        self.nl, self.no = nl, no
        self.grid = [torch.zeros(1)] * nl
        self.m = nn.ModuleList(nn.Conv2d(ch, no, 1) for _ in range(nl))

    @staticmethod
    def _make_grid(nx, ny):
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        return torch.stack((xv, yv), 2).view(1, ny, nx, 2).float()

    def forward(self, xs):
        out = []
        for i in range(self.nl):
            x = self.m[i](xs[i])
            bs, _, ny, nx = x.shape
            y = x.view(bs, self.no, ny, nx).permute(0, 2, 3, 1).sigmoid()
            if self.grid[i].shape[1:3] != y.shape[1:3]:
                self.grid[i] = self._make_grid(nx, ny).to(x.device)
            xy, wh = y.split([2, self.no - 2], dim=-1)
            out.append(xy * 2 - 0.5 + self.grid[i])
        return out

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3, padding=1)
        self.detect = Detect()

    def forward(self, img):
        f = self.backbone(img)
        return self.detect([f, f])

model = Model().to("cuda:0")
preds = model(torch.randn(1, 3, 8, 8).to("cuda:0"))
model.to("cpu")
img = torch.randn(1, 3, 8, 8)
'''
CELL = '''
preds = model(img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.detect.grid"]
FIX = "namespace"
REFERENCE_FIX = '''
model.detect.grid = [g.to("cpu") for g in model.detect.grid]
'''
REFERENCE_EDIT = None
CLEAN = False
