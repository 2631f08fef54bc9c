"""YOLOv5's last.pt holds an FP16 model; detect.py on `--device cpu` feeds it a float32 image.

Source: https://github.com/ultralytics/yolov5/issues/101
A model trained on Colab ran fine there, but `python detect.py --weights weights/last.pt ... --device
cpu` on a desktop raised "Input type (torch.FloatTensor) and weight type (torch.HalfTensor) should be
the same". train.py saves the checkpoint's model in half precision; detect.py loaded it with
`torch.load(weights, map_location=device)['model']`, halves images only when `half = device.type !=
'cpu'`, so on the CPU `img.float()` met FP16 weights. detect.py since loads the model as FP32
(`['model'].float()`). Stand-in: a two-block Conv+BN+SiLU detector; the checkpoint dict is built in
memory instead of torch.load.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import copy
import numpy as np
import torch
import torch.nn as nn

class Conv(nn.Module):                    # models/common.py Conv: conv (no bias) + BN + act
    def __init__(self, c1, c2, k=3, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))

class Model(nn.Module):
    def __init__(self, nc=2, na=3):
        super().__init__()
        self.backbone = nn.Sequential(Conv(3, 16, 3, 2), Conv(16, 32, 3, 2))
        self.detect = nn.Conv2d(32, na * (nc + 5), 1)

    def forward(self, x, augment=False):
        p = self.detect(self.backbone(x))
        return p.flatten(2).transpose(1, 2), None

trained = Model().eval()
ckpt = {"epoch": 2, "model": copy.deepcopy(trained).half()}   # what train.py wrote to last.pt

device = torch.device("cpu")              # --device cpu
half = device.type != "cpu"               # half precision only supported on CUDA
model = ckpt["model"]                     # torch.load(weights, map_location=device)['model']
model.to(device).eval()
if half:
    model.half()

img = torch.from_numpy(np.random.randint(0, 255, (3, 64, 64), dtype=np.uint8)).to(device)
img = img.half() if half else img.float()  # uint8 to fp16/32
img /= 255.0
if img.ndimension() == 3:
    img = img.unsqueeze(0)
'''
CELL = '''
pred = model(img, augment=False)[0]
'''
EXPECT_ERROR = "expected scalar type Float but found Half"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.float()
'''
REFERENCE_EDIT = None
CLEAN = False
