"""photosynthesis_metrics MultiScaleGMSDLoss on cuda images: the default scale weights are created on the CPU inside the function.

Source: https://github.com/photosynthesis-team/piq/issues/90
`loss = MultiScaleGMSDLoss(chromatic=True)` works on CPU tensors, but `loss(x.cuda(), y.cuda())`
raises a device-mismatch RuntimeError: `multi_scale_gmsd` builds its default
`scale_weights = torch.tensor([0.096, 0.596, 0.289, 0.019])` without a device and weights the
cuda per-scale GMSD values with it. The fix moves the weights to the input (`.to(x)`).
Stand-in: the functional MS-GMSD with a Prewitt-gradient GMSD per scale (chromatic term left out).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def _gmsd(x, y, t=170 / (255. ** 2)):
    kx = torch.tensor([[1., 0., -1.], [1., 0., -1.], [1., 0., -1.]], device=x.device) / 3.
    kernels = torch.stack([kx, kx.t()]).unsqueeze(1)
    x_grad = F.conv2d(x, kernels, padding=1).pow(2).sum(dim=1, keepdim=True).sqrt()
    y_grad = F.conv2d(y, kernels, padding=1).pow(2).sum(dim=1, keepdim=True).sqrt()
    gms = (2. * x_grad * y_grad + t) / (x_grad ** 2 + y_grad ** 2 + t)
    return gms.view(gms.size(0), -1).std(dim=1)

def multi_scale_gmsd(x, y, data_range=1., scale_weights=None):
    if scale_weights is None:
        scale_weights = torch.tensor([0.096, 0.596, 0.289, 0.019])
    x, y = x / data_range, y / data_range
    x_lum = x.mean(dim=1, keepdim=True)          # luminance channel (YIQ) in the library
    y_lum = y.mean(dim=1, keepdim=True)
    ms_gmds = []
    for scale in range(len(scale_weights)):
        if scale > 0:
            x_lum = F.avg_pool2d(x_lum, kernel_size=2, stride=2)
            y_lum = F.avg_pool2d(y_lum, kernel_size=2, stride=2)
        ms_gmds.append(_gmsd(x_lum, y_lum))
    ms_gmds = torch.stack(ms_gmds, dim=1)
    ms_gmds_val = scale_weights.view(1, -1) * (ms_gmds ** 2)
    return torch.sqrt(ms_gmds_val.sum(dim=1)).mean()

class MultiScaleGMSDLoss(nn.Module):
    def __init__(self, chromatic=False, data_range=1.):
        super().__init__()
        self.chromatic, self.data_range = chromatic, data_range

    def forward(self, prediction, target):
        return multi_scale_gmsd(prediction, target, data_range=self.data_range)

loss = MultiScaleGMSDLoss(chromatic=True)
x = torch.rand(1, 3, 64, 64)
y = torch.rand(1, 3, 64, 64)
print(loss(x, y))
'''
CELL = '''
loss(x.to("cuda:0"), y.to("cuda:0"))      # x.cuda(), y.cuda()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["scale_weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("scale_weights = torch.tensor([0.096, 0.596, 0.289, 0.019])",
                  "scale_weights = torch.tensor([0.096, 0.596, 0.289, 0.019], device=x.device)")
CLEAN = False
