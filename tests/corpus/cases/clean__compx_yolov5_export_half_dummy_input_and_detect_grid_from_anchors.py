"""YOLOv5 `export.py`: the model and the dummy image are moved to the device and made half together; `Detect` builds its grid on the anchors' device.

Source: https://github.com/ultralytics/yolov5/blob/master/export.py
`run()` loads the model on `device`, makes `im = torch.zeros(batch_size, 3, *imgsz).to(device)`,
then `if half: im, model = im.half(), model.half()` and runs dry passes `y = model(im)` before the
ONNX/TorchScript exporters; `Detect._make_grid` (models/yolo.py) creates its mesh with
`d = self.anchors.device` and `t = self.anchors.dtype`. Tensors created inside forward and a
half model: all consistent. Look-alike that runs. Stand-ins: a tiny backbone and Detect head.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Detect(nn.Module):
    def __init__(self, nc=80, anchors=((10, 13, 16, 30, 33, 23),), ch=(32,)):
        super().__init__()
        self.no, self.nl, self.na = nc + 5, len(anchors), len(anchors[0]) // 2
        self.register_buffer("anchors", torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)
        self.stride = torch.tensor([8.0])

    def _make_grid(self, nx=20, ny=20, i=0):
        d = self.anchors[i].device
        t = self.anchors[i].dtype
        shape = 1, self.na, ny, nx, 2
        y, x = torch.arange(ny, device=d, dtype=t), torch.arange(nx, device=d, dtype=t)
        yv, xv = torch.meshgrid(y, x, indexing="ij")
        grid = torch.stack((xv, yv), 2).expand(shape) - 0.5
        anchor_grid = (self.anchors[i] * 8).view((1, self.na, 1, 1, 2)).expand(shape)
        return grid, anchor_grid

    def forward(self, x):
        z = []
        for i in range(self.nl):
            x[i] = self.m[i](x[i])
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            grid, anchor_grid = self._make_grid(nx, ny, i)
            xy, wh, conf = x[i].sigmoid().split((2, 2, self.no - 4), 4)
            xy = (xy * 2 + grid) * 8
            wh = (wh * 2) ** 2 * anchor_grid
            z.append(torch.cat((xy, wh, conf), 4).view(bs, self.na * nx * ny, self.no))
        return torch.cat(z, 1)

class DetectionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 4, 1), nn.SiLU())
        self.detect = Detect()

    def forward(self, x):
        return self.detect([self.backbone(x)])

device = torch.device("cuda:0")              # select_device("0")
model = DetectionModel().to(device).eval()   # attempt_load(weights, device=device)
imgsz, batch_size, half = (64, 64), 1, True
im = torch.zeros(batch_size, 3, *imgsz).to(device)
if half:
    im, model = im.half(), model.half()
'''
CELL = '''
for _ in range(2):
    y = model(im)  # dry runs
print(y.shape, y.dtype, y.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
