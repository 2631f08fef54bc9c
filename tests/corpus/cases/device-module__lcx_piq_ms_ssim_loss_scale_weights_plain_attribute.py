"""piq.MultiScaleSSIMLoss().cuda(): the default `scale_weights` tensor is a plain attribute and stays on the CPU.

Source: https://github.com/photosynthesis-team/piq/issues/362
`criterion = piq.MultiScaleSSIMLoss().cuda()` with both images on cuda fails in
`_multi_scale_ssim` at `torch.prod((mcs_ssim ** scale_weights.view(-1, 1, 1)), dim=0)`:
"Expected all tensors to be on the same device, cuda:0 and cpu". The reporter points at
ms_ssim.py line 163: when `scale_weights is None` the MS-SSIM paper weights are stored as a plain
tensor attribute that `Module.cuda()` never moves; PR #364 registers it as a buffer.
Stand-in: MS-SSIM with a box-filter SSIM per scale, the same attribute layout.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss

def _ssim_per_channel(x, y, kernel, data_range=1.):
    c1, c2 = (0.01 * data_range) ** 2, (0.03 * data_range) ** 2
    n_channels = x.size(1)
    mu_x = F.conv2d(x, kernel, groups=n_channels)
    mu_y = F.conv2d(y, kernel, groups=n_channels)
    sigma_xx = F.conv2d(x * x, kernel, groups=n_channels) - mu_x ** 2
    sigma_yy = F.conv2d(y * y, kernel, groups=n_channels) - mu_y ** 2
    sigma_xy = F.conv2d(x * y, kernel, groups=n_channels) - mu_x * mu_y
    cs = (2. * sigma_xy + c2) / (sigma_xx + sigma_yy + c2)
    ss = (2. * mu_x * mu_y + c1) / (mu_x ** 2 + mu_y ** 2 + c1) * cs
    return ss.mean(dim=(-1, -2)), cs.mean(dim=(-1, -2))

def _multi_scale_ssim(x, y, data_range, kernel, scale_weights):
    mcs = []
    for iteration in range(scale_weights.size(0)):
        if iteration > 0:
            x = F.avg_pool2d(x, kernel_size=2, padding=0)
            y = F.avg_pool2d(y, kernel_size=2, padding=0)
        ssim_val, cs = _ssim_per_channel(x, y, kernel, data_range)
        mcs.append(torch.relu(cs))
    mcs[-1] = torch.relu(ssim_val)
    mcs_ssim = torch.stack(mcs, dim=0)
    msssim_val = torch.prod((mcs_ssim ** scale_weights.view(-1, 1, 1)), dim=0).mean(1)
    return msssim_val

class MultiScaleSSIMLoss(_Loss):
    def __init__(self, kernel_size=3, data_range=1., scale_weights=None):
        super().__init__()
        if scale_weights is None:
            # Values from MS-SSIM paper
            scale_weights = torch.tensor([0.0448, 0.2856, 0.3001, 0.2363, 0.1333])
        self.scale_weights = scale_weights
        self.kernel_size = kernel_size
        self.data_range = data_range

    def forward(self, x, y):
        kernel = torch.full((x.size(1), 1, self.kernel_size, self.kernel_size),
                            1. / self.kernel_size ** 2, device=x.device)
        score = _multi_scale_ssim(x, y, self.data_range, kernel, self.scale_weights)
        return 1. - score.mean()

criterion = MultiScaleSSIMLoss().to("cuda:0")      # .cuda()
x = torch.rand(1, 3, 96, 96, device="cuda:0")
y = torch.rand(1, 3, 96, 96, device="cuda:0")
'''
CELL = '''
z = criterion(x, y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion.scale_weights"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion.scale_weights = criterion.scale_weights.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
