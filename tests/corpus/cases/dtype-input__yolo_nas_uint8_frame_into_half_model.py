"""YOLO-NAS video inference with a half-precision model: the frame tensor is still uint8.

Source: https://github.com/naseemap47/YOLO-NAS/pull/29
Issue #22 of the repo: "RuntimeError: Input type (torch.cuda.ByteTensor) and weight type
(torch.cuda.HalfTensor) should be the same" - the frame read with OpenCV was turned into a tensor
with `torch.from_numpy(...)` and sent to the GPU as uint8, while the detector had been converted
with `.half()`. The PR converts the frame to the model's precision (and scales it) before the
forward. Stand-in: a small conv detector instead of the super-gradients YOLO-NAS model.
"""

SIM = "fake_cuda"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class YoloNAS(nn.Module):
    def __init__(self, num_classes=80):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.head = nn.Conv2d(32, 4 + num_classes, 1)

    def forward(self, x):
        return self.head(self.backbone(x))

device = torch.device("cuda:0")
model = YoloNAS().to(device).eval().half()
frame = np.random.randint(0, 255, (320, 320, 3), dtype=np.uint8)      # cv2.VideoCapture(...).read()
img = torch.from_numpy(frame[:, :, ::-1].copy()).permute(2, 0, 1).unsqueeze(0).to(device)
'''
CELL = '''
preds = model(img)
'''
EXPECT_ERROR = ("should be the same", "Input type (unsigned char)", "ByteTensor")
CULPRITS = ["img"]
FIX = "namespace"
REFERENCE_FIX = '''
img = img.half() / 255.0
'''
REFERENCE_EDIT = None
CLEAN = False
