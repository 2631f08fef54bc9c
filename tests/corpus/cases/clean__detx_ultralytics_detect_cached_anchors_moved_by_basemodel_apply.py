"""Look-alike: a YOLOv8 model that ran once on the CPU caches `Detect.anchors`/`strides` as plain tensors; `BaseModel._apply` moves them.

Source: https://github.com/ultralytics/ultralytics/blob/main/ultralytics/nn/tasks.py
`Detect._inference` caches `self.anchors, self.strides` (plain tensor attributes, not buffers) for the
last input shape, and `Detect.stride` is a plain tensor too. After a first prediction on the CPU the cache
holds CPU tensors; `model.to("cuda")` still moves them because `BaseModel._apply` is overridden to apply
`fn` to `m.stride`, `m.anchors` and `m.strides` of the Detect head, so the next GPU prediction with the
same image size reuses GPU anchors. Plain tensor attributes next to a moved model are right here: no
finding expected. Stand-in: the Detect head (cv2/cv3 branches reduced to 1x1 convs, DFL, make_anchors,
dist2bbox) and BaseModel._apply as in ultralytics; the backbone is two strided convs.
`torch.full((h * w, 1), stride)` is written as a product (the simulator cannot read the stride value).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def make_anchors(feats, strides, grid_cell_offset=0.5):
    anchor_points, stride_tensor = [], []
    dtype, device = feats[0].dtype, feats[0].device
    for i, stride in enumerate(strides):
        h, w = feats[i].shape[2:]
        sx = torch.arange(end=w, device=device, dtype=dtype) + grid_cell_offset
        sy = torch.arange(end=h, device=device, dtype=dtype) + grid_cell_offset
        sy, sx = torch.meshgrid(sy, sx, indexing="ij")
        anchor_points.append(torch.stack((sx, sy), -1).view(-1, 2))
        stride_tensor.append(torch.full((h * w, 1), 1.0, dtype=dtype, device=device) * stride)
    return torch.cat(anchor_points), torch.cat(stride_tensor)

def dist2bbox(distance, anchor_points, xywh=True, dim=-1):
    lt, rb = distance.chunk(2, dim)
    x1y1 = anchor_points - lt
    x2y2 = anchor_points + rb
    if xywh:
        return torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1), dim)
    return torch.cat((x1y1, x2y2), dim)

class DFL(nn.Module):
    def __init__(self, c1=16):
        super().__init__()
        self.conv = nn.Conv2d(c1, 1, 1, bias=False).requires_grad_(False)
        x = torch.arange(c1, dtype=torch.float)
        self.conv.weight.data[:] = nn.Parameter(x.view(1, c1, 1, 1))
        self.c1 = c1

    def forward(self, x):
        b, _, a = x.shape
        return self.conv(x.view(b, 4, self.c1, a).transpose(2, 1).softmax(1)).view(b, 4, a)

class Detect(nn.Module):
    dynamic = False
    shape = None
    anchors = torch.empty(0)
    strides = torch.empty(0)

    def __init__(self, nc=80, ch=()):
        super().__init__()
        self.nc = nc
        self.nl = len(ch)
        self.reg_max = 16
        self.no = nc + self.reg_max * 4
        self.stride = torch.zeros(self.nl)
        self.cv2 = nn.ModuleList(nn.Conv2d(x, 4 * self.reg_max, 1) for x in ch)
        self.cv3 = nn.ModuleList(nn.Conv2d(x, self.nc, 1) for x in ch)
        self.dfl = DFL(self.reg_max)

    def forward(self, x):
        for i in range(self.nl):
            x[i] = torch.cat((self.cv2[i](x[i]), self.cv3[i](x[i])), 1)
        if self.training:
            return x
        return self._inference(x), x

    def _inference(self, x):
        shape = x[0].shape
        x_cat = torch.cat([xi.view(shape[0], self.no, -1) for xi in x], 2)
        if self.dynamic or self.shape != shape:
            self.anchors, self.strides = (x.transpose(0, 1) for x in make_anchors(x, self.stride, 0.5))
            self.shape = shape
        box, cls = x_cat.split((self.reg_max * 4, self.nc), 1)
        dbox = dist2bbox(self.dfl(box), self.anchors.unsqueeze(0), xywh=True, dim=1) * self.strides
        return torch.cat((dbox, cls.sigmoid()), 1)

class BaseModel(nn.Module):
    def forward(self, x):
        y = []
        for m in self.model:
            x = m(y) if isinstance(m, Detect) else m(x)
            y.append(x)
        return x

    def _apply(self, fn):
        self = super()._apply(fn)
        m = self.model[-1]  # Detect()
        if isinstance(m, Detect):
            m.stride = fn(m.stride)
            m.anchors = fn(m.anchors)
            m.strides = fn(m.strides)
        return self

class DetectionModel(BaseModel):
    def __init__(self, nc=3):
        super().__init__()
        self.model = nn.ModuleList([nn.Conv2d(3, 16, 3, 8, 1), nn.Conv2d(16, 32, 3, 2, 1), Detect(nc, ch=(16, 32))])
        self.model[-1].stride = torch.tensor([8., 16.])

    def forward(self, x):
        p3 = self.model[0](x)
        p4 = self.model[1](p3)
        return self.model[2]([p3, p4])

model = DetectionModel(nc=3).eval()
im = torch.rand(1, 3, 64, 64)
with torch.no_grad():
    preds = model(im)                        # first prediction on the CPU: anchors cached on the CPU

device = torch.device("cuda:0")
model.to(device)                             # BaseModel._apply also moves stride / anchors / strides
'''
CELL = '''
with torch.no_grad():
    preds, feats = model(im.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
