"""pytorch_ssim.SSIM as a loss with one image on cuda and the other on the CPU: the cached window follows only img1.

Source: https://github.com/Po-Hsun-Su/pytorch-ssim/issues/19
`loss_ssim = -ssim_loss(noriginalimage, outputimage)` fails in `_ssim` at
`mu1 = F.conv2d(img1, window, ...)` / the next conv: "Input type (torch.cuda.FloatTensor) and weight
type (torch.FloatTensor) should be the same". The SSIM module creates its window for `img1`'s
type and moves it with `window.cuda(img1.get_device())` only when img1 is on cuda; the answers:
"you are sending two things to ssim ... only one of them is in GPU", move the other input.
Stand-in: pytorch_ssim's SSIM module as published; the first mixed op in the simulator is
`mu1 * mu2` (on a GPU the conv raises first).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
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

def _ssim(img1, img2, window, window_size, channel, size_average=True):
    mu1 = F.conv2d(img1, window, padding=window_size // 2, groups=channel)
    mu2 = F.conv2d(img2, window, padding=window_size // 2, groups=channel)
    mu1_sq, mu2_sq, mu1_mu2 = mu1.pow(2), mu2.pow(2), mu1 * mu2
    sigma1_sq = F.conv2d(img1 * img1, window, padding=window_size // 2, groups=channel) - mu1_sq
    sigma2_sq = F.conv2d(img2 * img2, window, padding=window_size // 2, groups=channel) - mu2_sq
    sigma12 = F.conv2d(img1 * img2, window, padding=window_size // 2, groups=channel) - mu1_mu2
    C1, C2 = 0.01 ** 2, 0.03 ** 2
    ssim_map = ((2 * mu1_mu2 + C1) * (2 * sigma12 + C2)) / ((mu1_sq + mu2_sq + C1) * (sigma1_sq + sigma2_sq + C2))
    return ssim_map.mean() if size_average else ssim_map.mean(1).mean(1).mean(1)

class SSIM(torch.nn.Module):
    def __init__(self, window_size=11, size_average=True):
        super().__init__()
        self.window_size, self.size_average, self.channel = window_size, size_average, 1
        self.window = create_window(window_size, self.channel)

    def forward(self, img1, img2):
        (_, channel, _, _) = img1.size()
        if channel == self.channel and self.window.data.type() == img1.data.type():
            window = self.window
        else:
            window = create_window(self.window_size, channel)
            if img1.is_cuda:
                window = window.to(img1.device)      # window.cuda(img1.get_device())
            window = window.type_as(img1)
            self.window, self.channel = window, channel
        return _ssim(img1, img2, window, self.window_size, channel, self.size_average)

ssim_loss = SSIM()
model = torch.nn.Conv2d(1, 1, 3, padding=1).to("cuda:0")
noisyimage = torch.rand(4, 1, 48, 48, device="cuda:0")
noriginalimage = torch.rand(4, 1, 48, 48)              # loaded from the dataset, never moved
outputimage = model(noisyimage)
'''
CELL = '''
loss_ssim = -ssim_loss(noriginalimage, outputimage)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["noriginalimage"]
FIX = "namespace"
REFERENCE_FIX = '''
noriginalimage = noriginalimage.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
