"""Look-alike: facenet-pytorch `detect_face` turns uint8 frames into float tensors on the MTCNN device before P-Net.

Source: https://github.com/timesler/facenet-pytorch (models/utils/detect_face.py, models/mtcnn.py)
`detect_face(imgs, minsize, pnet, rnet, onet, threshold, factor, device)` converts each frame with
`torch.as_tensor(np.uint8(img)).float().to(device)`, stacks and permutes to NCHW, then for every pyramid
scale resamples with `imresample` (area interpolation), rescales with `(img_x - 127.5) * 0.0078125` and
runs `reg, probs = pnet(img_x)`. The uint8 video frames are cast to float32 before any layer sees them.
Stand-ins: PNet with its real layer shapes (random weights), the proposal stage only (box decoding and
NMS left out), frames as random uint8 arrays.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class PNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 10, kernel_size=3)
        self.prelu1 = nn.PReLU(10)
        self.pool1 = nn.MaxPool2d(2, 2, ceil_mode=True)
        self.conv2 = nn.Conv2d(10, 16, kernel_size=3)
        self.prelu2 = nn.PReLU(16)
        self.conv3 = nn.Conv2d(16, 32, kernel_size=3)
        self.prelu3 = nn.PReLU(32)
        self.conv4_1 = nn.Conv2d(32, 2, kernel_size=1)
        self.softmax4_1 = nn.Softmax(dim=1)
        self.conv4_2 = nn.Conv2d(32, 4, kernel_size=1)
    def forward(self, x):
        x = self.prelu1(self.conv1(x))
        x = self.pool1(x)
        x = self.prelu2(self.conv2(x))
        x = self.prelu3(self.conv3(x))
        a = self.softmax4_1(self.conv4_1(x))
        b = self.conv4_2(x)
        return b, a

def imresample(img, sz):
    return torch.nn.functional.interpolate(img, size=(sz[0], sz[1]), mode="area")

def detect_face(imgs, minsize, pnet, rnet, onet, threshold, factor, device):
    imgs = [torch.as_tensor(np.uint8(img)).float().to(device) for img in imgs]
    imgs = torch.stack(imgs).permute(0, 3, 1, 2)
    h, w = imgs.shape[2:4]
    scale = 12.0 / minsize
    minl = min(h, w) * scale
    proposals = []
    while minl >= 12:
        hs = int(h * scale + 1)
        ws = int(w * scale + 1)
        img_x = imresample(imgs, (hs, ws))
        img_x = (img_x - 127.5) * 0.0078125
        reg, probs = pnet(img_x)
        proposals.append((reg, probs))
        scale = scale * factor
        minl = minl * factor
    return proposals

device = torch.device("cpu")
pnet = PNet().to(device).eval()
frames = [np.random.default_rng(i).integers(0, 256, (96, 128, 3), dtype=np.uint8) for i in range(2)]  # video frames
'''
CELL = '''
with torch.no_grad():
    proposals = detect_face(frames, 20, pnet, None, None, [0.6, 0.7, 0.7], 0.709, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
