"""Real-ESRGAN RealESRGANModel.feed_data: blur kernels collated on the CPU are moved before filter2D; USMSharp's kernel is a buffer.

Source: https://github.com/xinntao/Real-ESRGAN/blob/master/realesrgan/models/realesrgan_model.py
RealESRGANDataset generates `kernel1`, `kernel2` and `sinc_kernel` with numpy, so the collated batch
holds CPU tensors. `feed_data` moves them (`self.kernel1 = data['kernel1'].to(self.device)`, ...)
next to `self.gt = data['gt'].to(self.device)` before `filter2D`, and `USMSharp().cuda()` carries its
Gaussian kernel as a registered buffer (`self.register_buffer('kernel', kernel)`), so `.cuda()` moved
it. Look-alike: CPU-made kernels and a kernel tensor built in `__init__`, all on the GPU in time; it runs.
Stand-ins: BasicSR's filter2D and USMSharp (the Gaussian kernel from numpy instead of cv2), the first
degradation step of feed_data (USM, blur, resize, gaussian noise) on a fake cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch.nn import functional as F

def filter2D(img, kernel):
    k = kernel.size(-1)
    b, c, h, w = img.size()
    if k % 2 == 1:
        img = F.pad(img, (k // 2, k // 2, k // 2, k // 2), mode='reflect')
    else:
        raise ValueError('Wrong kernel size')
    ph, pw = img.size()[-2:]
    if kernel.size(0) == 1:
        img = img.view(b * c, 1, ph, pw)
        kernel = kernel.view(1, 1, k, k)
        return F.conv2d(img, kernel, padding=0).view(b, c, h, w)
    else:
        img = img.view(1, b * c, ph, pw)
        kernel = kernel.view(b, 1, k, k).repeat(1, c, 1, 1).view(b * c, 1, k, k)
        return F.conv2d(img, kernel, groups=b * c).view(b, c, h, w)

def getGaussianKernel(ksize, sigma):           # cv2.getGaussianKernel
    sigma = sigma if sigma > 0 else 0.3 * ((ksize - 1) * 0.5 - 1) + 0.8
    x = np.arange(ksize, dtype=np.float64) - (ksize - 1) / 2
    g = np.exp(-x ** 2 / (2 * sigma ** 2))
    return (g / g.sum()).reshape(-1, 1)

class USMSharp(torch.nn.Module):
    def __init__(self, radius=50, sigma=0):
        super(USMSharp, self).__init__()
        if radius % 2 == 0:
            radius += 1
        self.radius = radius
        kernel = getGaussianKernel(radius, sigma)
        kernel = torch.FloatTensor(np.dot(kernel, kernel.transpose())).unsqueeze_(0)
        self.register_buffer('kernel', kernel)

    def forward(self, img, weight=0.5, threshold=10):
        blur = filter2D(img, self.kernel)
        residual = img - blur
        mask = torch.abs(residual) * 255 > threshold
        mask = mask.float()
        soft_mask = filter2D(mask, self.kernel)
        sharp = img + weight * residual
        sharp = torch.clip(sharp, 0, 1)
        return soft_mask * sharp + (1 - soft_mask) * img

class RealESRGANModel:
    def __init__(self, opt):
        self.opt = opt
        self.device = torch.device('cuda:0')
        self.is_train = True
        self.usm_sharpener = USMSharp(radius=15).to(self.device)   # USMSharp().cuda()

    @torch.no_grad()
    def feed_data(self, data):
        self.gt = data['gt'].to(self.device)
        self.gt_usm = self.usm_sharpener(self.gt)
        self.kernel1 = data['kernel1'].to(self.device)
        self.kernel2 = data['kernel2'].to(self.device)
        self.sinc_kernel = data['sinc_kernel'].to(self.device)
        out = filter2D(self.gt_usm, self.kernel1)
        out = F.interpolate(out, scale_factor=0.5, mode='bilinear')
        noise = torch.randn_like(out) * (self.opt['noise_range'][1] / 255.)
        out = torch.clamp(out + noise, 0, 1)
        self.lq = filter2D(out, self.kernel2)

model = RealESRGANModel({'noise_range': [1, 30]})
batch = {                                       # default_collate of RealESRGANDataset items (CPU)
    'gt': torch.rand(2, 3, 32, 32),
    'kernel1': torch.softmax(torch.randn(2, 21 * 21), -1).view(2, 21, 21),
    'kernel2': torch.softmax(torch.randn(2, 21 * 21), -1).view(2, 21, 21),
    'sinc_kernel': torch.softmax(torch.randn(2, 21 * 21), -1).view(2, 21, 21),
}
'''
CELL = '''
model.feed_data(batch)
lq_shape = model.lq.shape
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
