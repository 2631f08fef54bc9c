"""Look-alike: face-alignment's 3D path draws the landmark heatmaps in numpy, moves them to the device for the depth net, and brings the outputs back to the CPU.

Source: https://github.com/1adrianb/face-alignment (face_alignment/api.py, get_landmarks_from_image)
For each detected face, the crop becomes `inp = torch.from_numpy(inp.transpose((2, 0, 1))).float()`,
`inp = inp.to(self.device)`, `inp.div_(255.0).unsqueeze_(0)`; the FAN heatmaps come back with
`out = self.face_alignment_net(inp)[-1].detach()` and `out = out.cpu()` for `get_preds_fromhm(out, center, scale)`
(`center` is a CPU `torch.FloatTensor`). For `LandmarksType._3D` the 68 gaussians are drawn into a numpy
array, turned into `heatmaps = torch.from_numpy(heatmaps).unsqueeze_(0)`, moved with `heatmaps.to(self.device)`,
concatenated with `inp` for `self.depth_prediciton_net`, and the depth is read back with `.data.cpu().view(68, 1)`
and concatenated with the CPU `pts_img`. Stand-ins: FAN and ResNetDepth reduced to small conv nets with the
real channel counts (3 -> 68 heatmaps, 3+68 -> 68 depths), `get_preds_fromhm`/`draw_gaussian` outputs given as
CPU arrays, a 64x64 crop instead of 256x256.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class FAN(nn.Module):
    def __init__(self, num_modules=1):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3)
        self.l0 = nn.Conv2d(64, 68, 1)
    def forward(self, x):
        return [self.l0(torch.relu(self.conv1(x)))]

class ResNetDepth(nn.Module):
    def __init__(self, num_classes=68):
        super().__init__()
        self.conv1 = nn.Conv2d(3 + 68, 64, 7, stride=2, padding=3, bias=False)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, num_classes)
    def forward(self, x):
        return self.fc(self.avgpool(torch.relu(self.conv1(x))).flatten(1))

class FaceAlignment:
    def __init__(self, device='cuda:0', flip_input=False):
        self.device = device
        self.flip_input = flip_input
        self.face_alignment_net = FAN(4).to(device).eval()
        self.depth_prediciton_net = ResNetDepth().to(device).eval()

fa = FaceAlignment(device='cuda:0')
d = [10.0, 12.0, 54.0, 60.0]                                   # detected face box
center = torch.FloatTensor([d[2] - (d[2] - d[0]) / 2.0, d[3] - (d[3] - d[1]) / 2.0])
scale = (d[2] - d[0] + d[3] - d[1]) / 195.0
crop_img = np.random.default_rng(0).integers(0, 256, (64, 64, 3)).astype(np.float64)   # crop(image, center, scale)
pts_img = torch.rand(68, 2) * 64                               # get_preds_fromhm(out, center, scale)
heatmaps_np = np.random.default_rng(1).random((68, 64, 64)).astype(np.float32)   # draw_gaussian(...) per point
'''
CELL = '''
with torch.no_grad():
    inp = torch.from_numpy(crop_img.transpose((2, 0, 1))).float()
    inp = inp.to(fa.device)
    inp.div_(255.0).unsqueeze_(0)
    out = fa.face_alignment_net(inp)[-1].detach()
    out = out.cpu()
    heatmaps = torch.from_numpy(heatmaps_np).unsqueeze_(0)
    heatmaps = heatmaps.to(fa.device)
    depth_pred = fa.depth_prediciton_net(torch.cat((inp, heatmaps), 1)).data.cpu().view(68, 1)
    pts_img = torch.cat((pts_img, depth_pred * (1.0 / (256.0 / (200.0 * scale)))), 1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
