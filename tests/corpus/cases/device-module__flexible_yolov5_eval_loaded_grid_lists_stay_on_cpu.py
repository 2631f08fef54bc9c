"""flexible-yolov5 eval: the checkpoint's cached `grid` / `anchor_grid` lists come back on the CPU, and `.to(device)` does not move lists.

Source: https://github.com/Bobo-y/flexible-yolov5/issues/111
"When I try to eval my model, although the model is load to GPU, but it seems that 'model.detection.grid'
and 'model.detection.anchor_grid' are still in CPU" - `scripts/eval.py` does
`model = attempt_load(weights).to(device)`, and the reporter worked around it by moving every
`model.detection.grid[i]` and `anchor_grid[i]` to the device. The Detect head caches its grids in plain
Python lists (rebuilt only when the feature-map shape changes); the saved model carries them, loading
with `map_location='cpu'` puts them on the CPU, and `Module.to()` never sees a list. Stand-in: a
one-level Detect head in a small model; the checkpoint round-trip by an eval pass on the CPU before
`.to(device)`. The GPU is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class Detect(nn.Module):
    onnx_dynamic = False

    def __init__(self, nc=2, anchors=((10, 13, 16, 30, 33, 23),), ch=(16,), stride=(8.,)):
        super().__init__()
        self.nc, self.no = nc, nc + 5
        self.nl, self.na = len(anchors), len(anchors[0]) // 2
        self.grid = [torch.zeros(1)] * self.nl
        self.anchor_grid = [torch.zeros(1)] * self.nl
        self.register_buffer('anchors', torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.register_buffer('stride', torch.tensor(stride))
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    def _make_grid(self, nx=20, ny=20, i=0):
        d = self.anchors[i].device
        yv, xv = torch.meshgrid(torch.arange(ny, device=d), torch.arange(nx, device=d), indexing='ij')
        grid = torch.stack((xv, yv), 2).expand((1, self.na, ny, nx, 2)).float()
        anchor_grid = (self.anchors[i].clone() * self.stride[i]).view((1, self.na, 1, 1, 2)).expand((1, self.na, ny, nx, 2)).float()
        return grid, anchor_grid

    def forward(self, x):
        z = []
        for i in range(self.nl):
            x[i] = self.m[i](x[i])
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            if not self.training:
                if self.onnx_dynamic or self.grid[i].shape[2:4] != x[i].shape[2:4]:
                    self.grid[i], self.anchor_grid[i] = self._make_grid(nx, ny, i)
                y = x[i].sigmoid()
                xy = (y[..., 0:2] * 2. - 0.5 + self.grid[i]) * self.stride[i]
                wh = (y[..., 2:4] * 2) ** 2 * self.anchor_grid[i]
                y = torch.cat((xy, wh, y[..., 4:]), -1)
                z.append(y.view(bs, -1, self.no))
        return x if self.training else (torch.cat(z, 1), x)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 8, 1), nn.SiLU())
        self.detection = Detect()

    def forward(self, x):
        return self.detection([self.backbone(x)])

def attempt_load(weights, map_location=None):
    # the saved model carries the grids its last validation pass cached; torch.load(weights, map_location='cpu')
    model = Model().eval()
    with torch.no_grad():
        model(torch.zeros(1, 3, 64, 64))
    return model

device = torch.device('meta')                        # select_device(opt.device) -> cuda:0
model = attempt_load('runs/train/exp/weights/best.pt').to(device)   # load FP32 model
img = torch.zeros(2, 3, 64, 64).to(device)
'''
CELL = '''
with torch.no_grad():
    out, train_out = model(img)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.detection.grid", "model.detection.anchor_grid"]
FIX = "namespace"
REFERENCE_FIX = '''
for i in range(len(model.detection.grid)):
    model.detection.grid[i] = model.detection.grid[i].to(device)
for i in range(len(model.detection.anchor_grid)):
    model.detection.anchor_grid[i] = model.detection.anchor_grid[i].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
