"""MODNet's supervised training step uses a module-level `GaussianBlurLayer` that the trainer moved to the GPU at import.

Source: https://github.com/ZHKKKe/MODNet (src/trainer.py)
`trainer.py` builds `blurer = GaussianBlurLayer(1, 3)` at module level and calls `blurer.cuda()` when
CUDA is available; `supervised_training_iter` reaches it through `global blurer` to blur the downsampled
ground-truth matte. The boundary mask comes from the trimap (`(trimap < 0.5) + (trimap > 0.5)`) and the
batch is moved to the model's device before the call, so the helper module, the model and every loss
operand share one device. Stand-ins: MODNet reduced to three conv heads (semantic at 1/16, detail, matte),
the scipy Gaussian kernel computed with numpy. SIM meta: "meta" plays the GPU (autograd works there).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class GaussianBlurLayer(nn.Module):
    def __init__(self, channels, kernel_size):
        super(GaussianBlurLayer, self).__init__()
        self.channels = channels
        self.kernel_size = kernel_size
        self.op = nn.Sequential(
            nn.ReflectionPad2d(math.floor(self.kernel_size / 2)),
            nn.Conv2d(channels, channels, self.kernel_size, stride=1, padding=0, bias=None, groups=channels))
        self._init_kernel()

    def forward(self, x):
        return self.op(x)

    def _init_kernel(self):
        sigma = 0.3 * ((self.kernel_size - 1) * 0.5 - 1) + 0.8
        ax = np.arange(self.kernel_size) - self.kernel_size // 2
        g = np.exp(-(ax ** 2) / (2 * sigma ** 2))
        kernel = np.outer(g, g) / np.outer(g, g).sum()          # scipy.ndimage.gaussian_filter(n, sigma)
        for name, param in self.named_parameters():
            param.data.copy_(torch.from_numpy(kernel))

blurer = GaussianBlurLayer(1, 3)
blurer.to("meta")                                           # `if torch.cuda.is_available(): blurer.cuda()`

def supervised_training_iter(modnet, optimizer, image, trimap, gt_matte,
                             semantic_scale=10.0, detail_scale=10.0, matte_scale=1.0):
    global blurer
    modnet.train()
    optimizer.zero_grad()
    pred_semantic, pred_detail, pred_matte = modnet(image, False)
    boundaries = (trimap < 0.5) + (trimap > 0.5)
    gt_semantic = F.interpolate(gt_matte, scale_factor=1/16, mode='bilinear')
    gt_semantic = blurer(gt_semantic)
    semantic_loss = semantic_scale * torch.mean(F.mse_loss(pred_semantic, gt_semantic))
    pred_boundary_detail = torch.where(boundaries, trimap, pred_detail)
    gt_detail = torch.where(boundaries, trimap, gt_matte)
    detail_loss = detail_scale * torch.mean(F.l1_loss(pred_boundary_detail, gt_detail))
    pred_boundary_matte = torch.where(boundaries, trimap, pred_matte)
    matte_l1_loss = F.l1_loss(pred_matte, gt_matte) + 4.0 * F.l1_loss(pred_boundary_matte, gt_matte)
    matte_compositional_loss = F.l1_loss(image * pred_matte, image * gt_matte) \\
        + 4.0 * F.l1_loss(image * pred_boundary_matte, image * gt_matte)
    matte_loss = matte_scale * torch.mean(matte_l1_loss + matte_compositional_loss)
    loss = semantic_loss + detail_loss + matte_loss
    loss.backward()
    optimizer.step()
    return semantic_loss, detail_loss, matte_loss

class MODNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.lr = nn.Sequential(nn.Conv2d(3, ch, 3, stride=16, padding=1), nn.ReLU(), nn.Conv2d(ch, 1, 1))
        self.hr = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 1, 1))
        self.f = nn.Conv2d(2, 1, 3, padding=1)

    def forward(self, img, inference):
        pred_semantic = torch.sigmoid(self.lr(img))
        pred_detail = torch.sigmoid(self.hr(img))
        up = F.interpolate(pred_semantic, size=img.shape[-2:], mode='bilinear', align_corners=False)
        pred_matte = torch.sigmoid(self.f(torch.cat([up, pred_detail], dim=1)))
        return pred_semantic, pred_detail, pred_matte

modnet = MODNet().to("meta")                                # torch.nn.DataParallel(MODNet()).cuda()
optimizer = torch.optim.SGD(modnet.parameters(), lr=0.01, momentum=0.9)
image = torch.randn(2, 3, 64, 64)                           # one batch from the CPU DataLoader
gt_matte = torch.rand(2, 1, 64, 64)
trimap = torch.full_like(gt_matte, 0.5)
trimap[gt_matte > 0.9] = 1.0
trimap[gt_matte < 0.1] = 0.0
image, trimap, gt_matte = image.to("meta"), trimap.to("meta"), gt_matte.to("meta")   # .cuda()
'''
CELL = '''
semantic_loss, detail_loss, matte_loss = supervised_training_iter(modnet, optimizer, image, trimap, gt_matte)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
