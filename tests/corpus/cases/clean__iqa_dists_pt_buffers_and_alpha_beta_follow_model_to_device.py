"""Look-alike: DISTS_pytorch keeps its normalisation constants, L2-pooling filters and alpha/beta weights in the module, so `DISTS().to(device)` moves them all.

Source: https://github.com/dingkeyan93/DISTS (DISTS_pytorch/DISTS_pt.py)
The reference script builds the images on the CPU with `prepare_image`, then
`model = DISTS().to(device); ref = ref.to(device); dist = dist.to(device); score = model(ref, dist)`.
Tensors that look left behind are not: `mean`/`std` and each `L2pooling.filter` are registered
buffers, `alpha`/`beta` registered parameters, and the per-stage weights are split from them inside
`forward`. Stand-in: the VGG16 feature stages are small conv stacks with the same channel list
layout (no pretrained weights, no `weights.pt`), images are random tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class L2pooling(nn.Module):
    def __init__(self, filter_size=5, stride=2, channels=None, pad_off=0):
        super(L2pooling, self).__init__()
        self.padding = (filter_size - 2) // 2
        self.stride = stride
        self.channels = channels
        a = np.hanning(filter_size)[1:-1]
        g = torch.Tensor(a[:, None] * a[None, :])
        g = g / torch.sum(g)
        self.register_buffer('filter', g[None, None, :, :].repeat((self.channels, 1, 1, 1)))

    def forward(self, input):
        input = input ** 2
        out = F.conv2d(input, self.filter, stride=self.stride, padding=self.padding, groups=input.shape[1])
        return (out + 1e-12).sqrt()

def _vgg_block(cin, cout):                     # stand-in for the torchvision vgg16 feature layers
    return [nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(inplace=True)]

class DISTS(torch.nn.Module):
    def __init__(self, load_weights=False):
        super(DISTS, self).__init__()
        self.chns = [3, 8, 16, 32, 64, 64]
        self.stage1 = nn.Sequential(*_vgg_block(3, 8))
        self.stage2 = nn.Sequential(L2pooling(channels=8), *_vgg_block(8, 16))
        self.stage3 = nn.Sequential(L2pooling(channels=16), *_vgg_block(16, 32))
        self.stage4 = nn.Sequential(L2pooling(channels=32), *_vgg_block(32, 64))
        self.stage5 = nn.Sequential(L2pooling(channels=64), *_vgg_block(64, 64))
        for param in self.parameters():
            param.requires_grad = False
        self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, -1, 1, 1))
        self.register_buffer("std", torch.tensor([0.229, 0.224, 0.225]).view(1, -1, 1, 1))
        self.register_parameter("alpha", nn.Parameter(torch.randn(1, sum(self.chns), 1, 1)))
        self.register_parameter("beta", nn.Parameter(torch.randn(1, sum(self.chns), 1, 1)))
        self.alpha.data.normal_(0.1, 0.01)
        self.beta.data.normal_(0.1, 0.01)

    def forward_once(self, x):
        h = (x - self.mean) / self.std
        h = self.stage1(h)
        h_relu1_2 = h
        h = self.stage2(h)
        h_relu2_2 = h
        h = self.stage3(h)
        h_relu3_3 = h
        h = self.stage4(h)
        h_relu4_3 = h
        h = self.stage5(h)
        h_relu5_3 = h
        return [x, h_relu1_2, h_relu2_2, h_relu3_3, h_relu4_3, h_relu5_3]

    def forward(self, x, y, require_grad=False, batch_average=False):
        with torch.no_grad():
            feats0 = self.forward_once(x)
            feats1 = self.forward_once(y)
        dist1 = 0
        dist2 = 0
        c1 = 1e-6
        c2 = 1e-6
        w_sum = self.alpha.sum() + self.beta.sum()
        alpha = torch.split(self.alpha / w_sum, self.chns, dim=1)
        beta = torch.split(self.beta / w_sum, self.chns, dim=1)
        for k in range(len(self.chns)):
            x_mean = feats0[k].mean([2, 3], keepdim=True)
            y_mean = feats1[k].mean([2, 3], keepdim=True)
            S1 = (2 * x_mean * y_mean + c1) / (x_mean ** 2 + y_mean ** 2 + c1)
            dist1 = dist1 + (alpha[k] * S1).sum(1, keepdim=True)
            x_var = ((feats0[k] - x_mean) ** 2).mean([2, 3], keepdim=True)
            y_var = ((feats1[k] - y_mean) ** 2).mean([2, 3], keepdim=True)
            xy_cov = (feats0[k] * feats1[k]).mean([2, 3], keepdim=True) - x_mean * y_mean
            S2 = (2 * xy_cov + c2) / (x_var + y_var + c2)
            dist2 = dist2 + (beta[k] * S2).sum(1, keepdim=True)
        score = 1 - (dist1 + dist2).squeeze()
        return score.mean() if batch_average else score

ref = torch.rand(1, 3, 64, 64)                 # prepare_image(Image.open(args.ref).convert("RGB"))
dist = torch.rand(1, 3, 64, 64)
device = torch.device("cuda:0")                # torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = DISTS().to(device)
'''
CELL = '''
ref = ref.to(device)
dist = dist.to(device)
score = model(ref, dist)
print(score.shape, score.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
