"""Look-alike: YOLOv5's AutoShape wrapper takes a CPU image tensor and moves it to the model's device itself.

Source: https://github.com/ultralytics/yolov5/blob/master/models/common.py
`AutoShape.forward` accepts torch tensors as well as file/PIL/numpy inputs; for a tensor it reads the
device of the wrapped model's first parameter (`p = next(self.model.parameters())`) and calls
`self.model(ims.to(p.device).type_as(p), augment=augment)`. A batch built on the CPU next to a model
on the GPU is right here: no finding expected. Stand-in: AutoShape's tensor branch and a small
DetectionModel (two strided convs and a 1x1 detection conv); AMP stays off as in the default.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from contextlib import nullcontext
import torch
import torch.nn as nn

class DetectionModel(nn.Module):
    def __init__(self, nc=80, na=3):
        super().__init__()
        self.stride = torch.tensor([8., 16.])
        self.names = {i: f"class{i}" for i in range(nc)}
        self.model = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 4, 1), nn.SiLU(),
                                   nn.Conv2d(32, na * (nc + 5), 1))
        self.na, self.no = na, nc + 5

    def forward(self, x, augment=False):
        y = self.model(x)
        bs, _, ny, nx = y.shape
        return y.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).reshape(bs, -1, self.no).sigmoid()

class AutoShape(nn.Module):
    conf = 0.25
    iou = 0.45
    amp = False

    def __init__(self, model, verbose=True):
        super().__init__()
        self.pt = True
        self.model = model.eval()

    def forward(self, ims, size=640, augment=False, profile=False):
        p = next(self.model.parameters()) if self.pt else torch.empty(1, device=self.model.device)
        autocast = self.amp and (p.device.type != "cpu")
        if isinstance(ims, torch.Tensor):  # torch
            with (torch.autocast("cuda") if autocast else nullcontext()):
                return self.model(ims.to(p.device).type_as(p), augment=augment)  # inference
        raise NotImplementedError("file/PIL/numpy inputs are not part of this stand-in")

device = torch.device("cuda:0")
model = AutoShape(DetectionModel()).to(device)      # torch.hub.load('ultralytics/yolov5', 'yolov5s')
imgs = torch.rand(2, 3, 320, 320)                    # a batch prepared on the CPU
'''
CELL = '''
with torch.no_grad():
    results = model(imgs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
