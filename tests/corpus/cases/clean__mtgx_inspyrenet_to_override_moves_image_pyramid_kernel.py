"""InSPyReNet keeps Gaussian kernels in plain helper objects, and its overridden `to()`/`cuda()` moves them.

Source: https://github.com/plemeri/InSPyReNet (lib/InSPyReNet.py, lib/modules/layers.py)
`ImagePyramid` and `Transition` are not `nn.Module`s: their `kernel` tensors are plain attributes that
`Module.to()` would never see. InSPyReNet overrides `to(device)` to move `image_pyramid` and the
transitions first and makes `cuda(idx)` call it, so `model.cuda()` puts every kernel on cuda:0 and the
Laplacian pyramid reconstruction in `forward_inference` runs on one device. Stand-ins: the Res2Net/Swin
backbone, context and attention modules reduced to convs that produce the pyramid levels.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def gaussian_kernel(ksize, sigma):                    # cv2.getGaussianKernel
    ax = np.arange(ksize) - ksize // 2
    k = np.exp(-(ax ** 2) / (2 * sigma ** 2))
    return (k / k.sum()).reshape(-1, 1)

class ImagePyramid:
    def __init__(self, ksize=7, sigma=1, channels=1):
        self.ksize = ksize
        self.sigma = sigma
        self.channels = channels
        k = gaussian_kernel(ksize, sigma)
        k = np.outer(k, k)
        k = torch.tensor(k).float()
        self.kernel = k.repeat(channels, 1, 1, 1)

    def to(self, device):
        self.kernel = self.kernel.to(device)
        return self

    def cuda(self, idx=0):
        self.to(device="cuda:{}".format(idx))
        return self

    def expand(self, x):
        z = torch.zeros_like(x)
        x = torch.cat([x, z, z, z], dim=1)
        x = F.pixel_shuffle(x, 2)
        x = F.pad(x, (self.ksize // 2, ) * 4, mode='reflect')
        x = F.conv2d(x, self.kernel * 4, groups=self.channels)
        return x

    def reconstruct(self, x, laplacian_x):
        expanded_x = self.expand(x)
        if laplacian_x.shape != expanded_x:
            laplacian_x = F.interpolate(laplacian_x, expanded_x.shape[-2:], mode='bilinear', align_corners=True)
        return expanded_x + laplacian_x

class InSPyReNet(nn.Module):
    def __init__(self, depth=8):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, depth, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Conv2d(depth, 1, 3, stride=4, padding=1)      # d3 at 1/8
        self.attention2 = nn.Conv2d(depth, 1, 3, stride=2, padding=1)   # p2 at 1/4
        self.attention1 = nn.Conv2d(depth, 1, 3, padding=1)             # p1 at 1/2
        self.image_pyramid = ImagePyramid(7, 1)
        self.forward = self.forward_inference

    def to(self, device):
        self.image_pyramid.to(device)
        super(InSPyReNet, self).to(device)
        return self

    def cuda(self, idx=0):
        self.to(device="cuda:{}".format(idx))
        return self

    def forward_inference(self, sample):
        x1 = self.backbone(sample['image'])
        d3 = self.decoder(x1)
        d2 = self.image_pyramid.reconstruct(d3, self.attention2(x1))
        d1 = self.image_pyramid.reconstruct(d2, self.attention1(x1))
        pred = torch.sigmoid(d1)
        sample['pred'] = (pred - pred.min()) / (pred.max() - pred.min() + 1e-8)
        return sample

model = InSPyReNet()
model.eval()
model.cuda()
sample = {'image': torch.randn(1, 3, 64, 64).to("cuda:0")}
'''
CELL = '''
with torch.no_grad():
    out = model(sample)
pred = out['pred']
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
