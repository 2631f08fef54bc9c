"""pytorch-msssim MSSSIM loss on images cast to DoubleTensor: the Gaussian window it builds is float32.

Source: https://github.com/jorge-pessoa/pytorch-msssim/issues/6
The user made `lr_tensor`/`in_tensor` with `.type('torch.DoubleTensor').to(DEVICE)` and called
`lr_loss = pytorch_msssim.MSSSIM(); lr_l = lr_loss(ds_in_tensor, lr_tensor)`, which failed in
`ssim`'s `F.conv2d(img1, window, ...)` with "Expected object of scalar type Double but got scalar
type Float for argument #2 'weight'": `create_window` returns a float32 window (moved to the
image's device, not its dtype). Fix on the user's side: keep the images float32.
Stand-in: `gaussian`/`create_window`/`ssim`/`msssim` reduced to two scales, the user's `bds`
downsampler as average pooling; CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

def gaussian(window_size, sigma):
    gauss = torch.Tensor([np.exp(-(x - window_size // 2) ** 2 / float(2 * sigma ** 2)) for x in range(window_size)])
    return gauss / gauss.sum()

def create_window(window_size, channel=1):
    _1D_window = gaussian(window_size, 1.5).unsqueeze(1)
    _2D_window = _1D_window.mm(_1D_window.t()).float().unsqueeze(0).unsqueeze(0)
    return _2D_window.expand(channel, 1, window_size, window_size).contiguous()

def ssim(img1, img2, window_size=11, size_average=True, full=False, val_range=1.0):
    (_, channel, height, width) = img1.size()
    real_size = min(window_size, height, width)
    window = create_window(real_size, channel=channel).to(img1.device)
    mu1 = F.conv2d(img1, window, padding=0, groups=channel)
    mu2 = F.conv2d(img2, window, padding=0, groups=channel)
    sigma1_sq = F.conv2d(img1 * img1, window, padding=0, groups=channel) - mu1 ** 2
    sigma2_sq = F.conv2d(img2 * img2, window, padding=0, groups=channel) - mu2 ** 2
    sigma12 = F.conv2d(img1 * img2, window, padding=0, groups=channel) - mu1 * mu2
    C1, C2 = (0.01 * val_range) ** 2, (0.03 * val_range) ** 2
    cs = torch.mean((2 * sigma12 + C2) / (sigma1_sq + sigma2_sq + C2))
    ssim_map = ((2 * mu1 * mu2 + C1) * (2 * sigma12 + C2)) / ((mu1 ** 2 + mu2 ** 2 + C1) * (sigma1_sq + sigma2_sq + C2))
    ret = ssim_map.mean()
    return (ret, cs) if full else ret

def msssim(img1, img2, window_size=11, size_average=True):
    weights = torch.FloatTensor([0.4, 0.6]).to(img1.device)
    mssim, mcs = [], []
    for _ in range(len(weights)):
        sim, cs = ssim(img1, img2, window_size=window_size, full=True)
        mssim.append(sim); mcs.append(cs)
        img1, img2 = F.avg_pool2d(img1, (2, 2)), F.avg_pool2d(img2, (2, 2))
    mssim, mcs = torch.stack(mssim), torch.stack(mcs)
    return torch.prod(mcs[:-1] ** weights[:-1]) * mssim[-1] ** weights[-1]

class MSSSIM(torch.nn.Module):
    def __init__(self, window_size=11, size_average=True):
        super().__init__()
        self.window_size, self.size_average = window_size, size_average

    def forward(self, img1, img2):
        return msssim(img1, img2, window_size=self.window_size, size_average=self.size_average)

def bds(x, nhwc=False):   # the user's bicubic downsampler, as average pooling
    return F.avg_pool2d(x, 2)

DEVICE = torch.device("cpu")
lr_img = np.random.rand(3, 32, 32)
sr_img = np.random.rand(3, 64, 64)
lr_loss = MSSSIM()
lr_tensor = torch.tensor(np.expand_dims(lr_img.astype(np.float32), axis=0)).type('torch.DoubleTensor').to(DEVICE)
in_tensor = torch.tensor(np.expand_dims(sr_img.astype(np.float32), axis=0)).type('torch.DoubleTensor').to(DEVICE)
ds_in_tensor = bds(in_tensor, nhwc=True)
'''
CELL = '''
lr_l = lr_loss(ds_in_tensor, lr_tensor)
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "scalar type", "should be the same")
CULPRITS = ["ds_in_tensor", "lr_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
lr_tensor = lr_tensor.float()
ds_in_tensor = ds_in_tensor.float()
'''
REFERENCE_EDIT = None
CLEAN = False
