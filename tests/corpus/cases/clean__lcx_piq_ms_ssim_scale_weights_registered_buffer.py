"""piq after PR #364: MultiScaleSSIMLoss registers its default scale weights as a buffer, so `.cuda()` moves them.

Source: https://github.com/photosynthesis-team/piq/pull/364
"Move Constants to Module Buffer": `self.register_buffer("scale_weights", torch.tensor([...]))`
when `scale_weights is None`, in MS-SSIM and MS-GMSD. Look-alike: a constant tensor made on the
CPU in `__init__` of a loss module that is then moved to cuda with the inputs, and per-scale
values stacked and weighted on the GPU. Stand-in: MS-SSIM with a box-filter SSIM per scale.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss

def _ssim_per_channel(x, y, kernel, data_range=1.):
    c1, c2 = (0.01 * data_range) ** 2, (0.03 * data_range) ** 2
    n = x.size(1)
    mu_x, mu_y = F.conv2d(x, kernel, groups=n), F.conv2d(y, kernel, groups=n)
    sigma_xx = F.conv2d(x * x, kernel, groups=n) - mu_x ** 2
    sigma_yy = F.conv2d(y * y, kernel, groups=n) - mu_y ** 2
    sigma_xy = F.conv2d(x * y, kernel, groups=n) - mu_x * mu_y
    cs = (2. * sigma_xy + c2) / (sigma_xx + sigma_yy + c2)
    ss = (2. * mu_x * mu_y + c1) / (mu_x ** 2 + mu_y ** 2 + c1) * cs
    return ss.mean(dim=(-1, -2)), cs.mean(dim=(-1, -2))

class MultiScaleSSIMLoss(_Loss):
    def __init__(self, kernel_size=3, data_range=1., scale_weights=None):
        super().__init__()
        if scale_weights is None:
            self.register_buffer("scale_weights", torch.tensor([0.0448, 0.2856, 0.3001, 0.2363, 0.1333]))
        else:
            self.register_buffer("scale_weights", scale_weights / scale_weights.sum())
        self.kernel_size, self.data_range = kernel_size, data_range

    def forward(self, x, y):
        kernel = torch.full((x.size(1), 1, self.kernel_size, self.kernel_size),
                            1. / self.kernel_size ** 2, dtype=x.dtype, device=x.device)
        mcs = []
        for i in range(self.scale_weights.size(0)):
            if i > 0:
                x, y = F.avg_pool2d(x, 2), F.avg_pool2d(y, 2)
            ssim_val, cs = _ssim_per_channel(x, y, kernel, self.data_range)
            mcs.append(torch.relu(cs))
        mcs[-1] = torch.relu(ssim_val)
        mcs_ssim = torch.stack(mcs, dim=0)
        score = torch.prod(mcs_ssim ** self.scale_weights.view(-1, 1, 1), dim=0).mean(1)
        return 1. - score.mean()

criterion = MultiScaleSSIMLoss().to("cuda:0")
x = torch.rand(1, 3, 96, 96, device="cuda:0")
y = torch.rand(1, 3, 96, 96, device="cuda:0")
'''
CELL = '''
z = criterion(x, y)
print(z.device, criterion.scale_weights.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
