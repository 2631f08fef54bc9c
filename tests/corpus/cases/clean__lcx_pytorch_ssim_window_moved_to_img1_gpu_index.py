"""pytorch_ssim after the fix for issue #4: the cached window is rebuilt and moved to img1's GPU when the input is on cuda:1.

Source: https://github.com/Po-Hsun-Su/pytorch-ssim/issues/4
"`window` variable is not set to the same device as `img1`": with inputs on a GPU other than 0,
`window.cuda()` put the Gaussian window on gpu 0; commit 881d21 changed it to
`window.cuda(img1.get_device())` and `type_as(img1)`. Look-alike: a module keeping a CPU window as
a plain attribute, used on a second GPU, that re-creates and moves it on the input's device.
Stand-in: the published SSIM module, `.cuda(idx)` written `.to(img1.device)` and the
`window.data.type()` check written as a device/dtype comparison.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from math import exp

def gaussian(window_size, sigma):
    gauss = torch.Tensor([exp(-(x - window_size // 2) ** 2 / float(2 * sigma ** 2)) for x in range(window_size)])
    return gauss / gauss.sum()

def create_window(window_size, channel):
    _1D_window = gaussian(window_size, 1.5).unsqueeze(1)
    _2D_window = _1D_window.mm(_1D_window.t()).float().unsqueeze(0).unsqueeze(0)
    return _2D_window.expand(channel, 1, window_size, window_size).contiguous()

def _ssim(img1, img2, window, window_size, channel):
    mu1 = F.conv2d(img1, window, padding=window_size // 2, groups=channel)
    mu2 = F.conv2d(img2, window, padding=window_size // 2, groups=channel)
    mu1_sq, mu2_sq, mu1_mu2 = mu1.pow(2), mu2.pow(2), mu1 * mu2
    sigma1_sq = F.conv2d(img1 * img1, window, padding=window_size // 2, groups=channel) - mu1_sq
    sigma2_sq = F.conv2d(img2 * img2, window, padding=window_size // 2, groups=channel) - mu2_sq
    sigma12 = F.conv2d(img1 * img2, window, padding=window_size // 2, groups=channel) - mu1_mu2
    C1, C2 = 0.01 ** 2, 0.03 ** 2
    ssim_map = ((2 * mu1_mu2 + C1) * (2 * sigma12 + C2)) / ((mu1_sq + mu2_sq + C1) * (sigma1_sq + sigma2_sq + C2))
    return ssim_map.mean()

class SSIM(torch.nn.Module):
    def __init__(self, window_size=11):
        super().__init__()
        self.window_size, self.channel = window_size, 1
        self.window = create_window(window_size, self.channel)

    def forward(self, img1, img2):
        (_, channel, _, _) = img1.size()
        if channel == self.channel and self.window.device == img1.device and self.window.dtype == img1.dtype:
            window = self.window
        else:
            window = create_window(self.window_size, channel)
            if img1.is_cuda:
                window = window.to(img1.device)      # window.cuda(img1.get_device())
            window = window.type_as(img1)
            self.window, self.channel = window, channel
        return _ssim(img1, img2, window, self.window_size, channel)

ssim_loss = SSIM(window_size=11)
img1 = torch.rand(2, 3, 48, 48, device="cuda:1")
img2 = torch.rand(2, 3, 48, 48, device="cuda:1")
'''
CELL = '''
print(ssim_loss(img1, img2).device, ssim_loss.window.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
