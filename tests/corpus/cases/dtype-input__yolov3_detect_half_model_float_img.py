"""ultralytics/yolov3 `detect.py --half`: the model is converted to FP16, the image batch is not.

Source: https://github.com/ultralytics/yolov3/issues/1085
"How to use --half?": running detection with `--half` raised "Input type (torch.cuda.FloatTensor) and
weight type (torch.cuda.HalfTensor) should be the same": `model.half()` was applied, but the frame
was turned into a float32 tensor (`torch.from_numpy(img).to(device).float() / 255`). The fix
(2f636d5) converts the image the same way: `img = img.half() if half else img.float()`.
Stand-in: a small Darknet-style conv stack instead of the YOLOv3 model.
"""

SIM = "fake_cuda"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Darknet(nn.Module):
    def __init__(self, nc=80):
        super().__init__()
        self.module_list = nn.Sequential(
            nn.Conv2d(3, 16, 3, 1, 1), nn.LeakyReLU(0.1),
            nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.1),
            nn.Conv2d(32, 3 * (5 + nc), 1))

    def forward(self, x):
        return self.module_list(x)

device = torch.device("cuda:0")
half = True
model = Darknet().to(device).eval()
if half:
    model.half()
img0 = np.random.randint(0, 255, (3, 320, 320), dtype=np.uint8)   # letterboxed frame, CHW
img = torch.from_numpy(img0).to(device).float() / 255.0
if img.ndimension() == 3:
    img = img.unsqueeze(0)
'''
CELL = '''
pred = model(img)
'''
EXPECT_ERROR = ("Input type (float) and bias type (c10::Half) should be the same",
                "Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same",
                "should be the same")
CULPRITS = ["img"]
FIX = "namespace"
REFERENCE_FIX = '''
img = img.half() if half else img.float()
'''
REFERENCE_EDIT = None
CLEAN = False
