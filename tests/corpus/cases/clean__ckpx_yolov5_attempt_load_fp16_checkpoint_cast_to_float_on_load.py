"""Look-alike: YOLOv5 `attempt_load` reads the FP16 checkpoint and casts it back with `.float()` while moving it, so float images run.

Source: https://github.com/ultralytics/yolov5/blob/master/models/experimental.py
`attempt_load` does `ckpt = torch.load(attempt_download(w), map_location='cpu')` and
`ckpt = (ckpt.get('ema') or ckpt['model']).to(device).float()  # FP32 model`, then `.eval()`;
detect.py feeds `im = im.half() if model.fp16 else im.float()`. The checkpoint entry is a half copy of
the network (as train.py saves it) and the loaded dict stays in the namespace, but the model that
runs is float on the GPU and the images are cast to match: nothing to report. Stand-ins: the YOLOv5
network reduced to Conv-BN-SiLU blocks and a 1x1 Detect conv; the `.pt` file is an in-memory dict
read by a `torch.load` stand-in (torch 2.13's weights-only default would refuse the pickled module).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import copy
import torch
import torch.nn as nn

def autopad(k, p=None):
    if p is None:
        p = k // 2 if isinstance(k, int) else [x // 2 for x in k]
    return p

class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1, p=None):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, autopad(k, p), bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))

class Model(nn.Module):
    """models/yolo.py Model, reduced: a small backbone and one Detect output."""
    def __init__(self, nc=80, na=3):
        super().__init__()
        self.nc, self.na, self.no = nc, na, nc + 5
        self.model = nn.Sequential(Conv(3, 16, 6, 2, 2), Conv(16, 32, 3, 2), Conv(32, 32, 1, 1))
        self.detect = nn.Conv2d(32, na * self.no, 1)
        self.names = [f"class{i}" for i in range(nc)]

    def forward(self, x):
        x = self.detect(self.model(x))
        bs, _, ny, nx = x.shape
        y = x.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).sigmoid()
        return (y.reshape(bs, -1, self.no), None)

# best.pt as train.py saves it: 'model': deepcopy(de_parallel(model)).half(), 'ema': None after strip_optimizer
_FILES = {"best.pt": {"epoch": -1, "model": Model().half(), "ema": None, "optimizer": None}}

def torch_load(f, map_location=None):
    return _FILES[f]

def attempt_load(weights, device=None, inplace=True):
    ckpt = torch_load(weights, map_location='cpu')  # load
    model = (ckpt.get('ema') or ckpt['model']).to(device).float()  # FP32 model
    return model.eval()

device = torch.device("cuda:0")
weights = "best.pt"
ckpt = torch_load(weights, map_location='cpu')
model = attempt_load(weights, device=device)
half = False  # --half not given
stride, names = 32, model.names
img = torch.randint(0, 255, (3, 64, 64), dtype=torch.uint8)  # LoadImages letterboxed frame
'''
CELL = '''
with torch.no_grad():
    im = img.to(device)
    im = im.half() if half else im.float()  # uint8 to fp16/32
    im /= 255  # 0 - 255 to 0.0 - 1.0
    if len(im.shape) == 3:
        im = im[None]  # expand for batch dim
    pred = model(im)[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
