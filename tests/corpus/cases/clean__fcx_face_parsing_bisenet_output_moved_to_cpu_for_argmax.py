"""Look-alike: face-parsing.PyTorch `evaluate` moves the BiSeNet parsing logits back to the CPU for the argmax map.

Source: https://github.com/zllrunning/face-parsing.PyTorch (test.py)
`evaluate` builds `BiSeNet(n_classes=19)`, `net.to(device)` with the module-level `device = torch.device('cuda')`,
and under `torch.no_grad()` turns each resized image into `img = to_tensor(image)`, `torch.unsqueeze(img, 0)`,
`img = img.to(device)`, then `out = net(img)[0]` and `parsing = out.squeeze(0).cpu()...argmax(0)` for the
colour map. The CPU copy of the output is deliberate (it feeds numpy/cv2 visualisation).
Stand-ins: BiSeNet reduced to a conv encoder + 19-class head returning `(out, out16, out32)`, the PIL image
as a 64x64 uint8 array, `to_tensor` as ToTensor + Normalize; the numpy argmax done with torch on the CPU copy.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device('cuda:0')

class BiSeNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.cp = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
        self.conv_out = nn.Conv2d(16, n_classes, 1)
        self.conv_out16 = nn.Conv2d(16, n_classes, 1)
        self.conv_out32 = nn.Conv2d(16, n_classes, 1)
    def forward(self, x):
        H, W = x.size()[2:]
        feat = self.cp(x)
        feat_out = F.interpolate(self.conv_out(feat), (H, W), mode='bilinear', align_corners=True)
        feat_out16 = F.interpolate(self.conv_out16(feat), (H, W), mode='bilinear', align_corners=True)
        feat_out32 = F.interpolate(self.conv_out32(feat), (H, W), mode='bilinear', align_corners=True)
        return feat_out, feat_out16, feat_out32

def to_tensor(image):                 # transforms.ToTensor() + Normalize(mean, std)
    t = torch.from_numpy(image.transpose(2, 0, 1).copy()).float().div(255)
    mean = torch.tensor((0.485, 0.456, 0.406)).view(3, 1, 1)
    std = torch.tensor((0.229, 0.224, 0.225)).view(3, 1, 1)
    return (t - mean) / std

n_classes = 19
net = BiSeNet(n_classes=n_classes)
net.to(device)
net.eval()
image = np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8)   # img.resize((512, 512))
'''
CELL = '''
with torch.no_grad():
    img = to_tensor(image)
    img = torch.unsqueeze(img, 0)
    img = img.to(device)
    out = net(img)[0]
    parsing = out.squeeze(0).cpu().argmax(0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
