"""Look-alike: pyiqa's SSIM casts the cuda images to float64 and builds its Gaussian window on the CPU in float32, then aligns it with `.to(X)`.

Source: https://github.com/chaofengc/IQA-PyTorch (pyiqa/archs/ssim_arch.py, pyiqa/matlab_utils)
`SSIM.forward` runs `preprocess_rgb(X, ...).to(torch.float64)` on both images (float64 for
numerical stability, PR #125), and `ssim()` creates its window with
`win = fspecial(11, 1.5, X.shape[1]).to(X)`: a numpy-built float32 CPU kernel that `.to(X)` gives
the images' device and dtype before the `valid` convolutions. A float32 cuda model output, a
float64 copy and a CPU-made kernel are all in play, and nothing mismatches. Stand-in: `fspecial`,
`filter2`, `rgb2yiq`/`to_y_channel` and `preprocess_rgb` as in pyiqa (the Y channel is taken with
`narrow`, which the simulator allows on a cuda tensor); the restoration model is a conv net.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

def fspecial(size=None, sigma=None, channels=1, filter_type='gaussian'):
    shape = (size, size)
    m, n = [(ss - 1.) / 2. for ss in shape]
    y, x = np.ogrid[-m:m + 1, -n:n + 1]
    h = np.exp(-(x * x + y * y) / (2. * sigma * sigma))
    h[h < np.finfo(h.dtype).eps * h.max()] = 0
    sumh = h.sum()
    if sumh != 0:
        h /= sumh
    return torch.from_numpy(h).float().repeat(channels, 1, 1, 1)

def filter2(input, weight, shape='same'):
    assert shape == 'valid'
    return F.conv2d(input, weight, stride=1, padding=0, groups=input.shape[1])

def rgb2yiq(x):
    yiq_weights = torch.tensor([[0.299, 0.587, 0.114],
                                [0.59590059, -0.27455667, -0.32134392],
                                [0.21153661, -0.52273617, 0.31119955]]).t().to(x)
    return torch.matmul(x.permute(0, 2, 3, 1), yiq_weights).permute(0, 3, 1, 2)

def to_y_channel(img, out_data_range=1., color_space='yiq'):
    img = rgb2yiq(img)
    return img.narrow(1, 0, 1) * out_data_range        # img[:, [0], :, :] * out_data_range

def preprocess_rgb(x, test_y_channel, data_range=1, color_space='yiq'):
    if test_y_channel and x.shape[1] == 3:
        x = to_y_channel(x, data_range, color_space)
    else:
        x = x * data_range
    if data_range == 255:
        x = x - x.detach() + x.round()
    return x

def ssim(X, Y, win=None, get_ssim_map=False, get_cs=False, get_weight=False, downsample=False, data_range=1.0):
    if win is None:
        win = fspecial(11, 1.5, X.shape[1]).to(X)
    C1 = (0.01 * data_range) ** 2
    C2 = (0.03 * data_range) ** 2
    mu1 = filter2(X, win, 'valid')
    mu2 = filter2(Y, win, 'valid')
    mu1_sq = mu1.pow(2)
    mu2_sq = mu2.pow(2)
    mu1_mu2 = mu1 * mu2
    sigma1_sq = filter2(X * X, win, 'valid') - mu1_sq
    sigma2_sq = filter2(Y * Y, win, 'valid') - mu2_sq
    sigma12 = filter2(X * Y, win, 'valid') - mu1_mu2
    cs_map = F.relu((2 * sigma12 + C2) / (sigma1_sq + sigma2_sq + C2))
    ssim_map = ((2 * mu1_mu2 + C1) / (mu1_sq + mu2_sq + C1)) * cs_map
    return ssim_map.mean([1, 2, 3])

class SSIM(torch.nn.Module):
    def __init__(self, channels=3, downsample=False, test_y_channel=True, color_space='yiq', crop_border=0.):
        super(SSIM, self).__init__()
        self.downsample = downsample
        self.test_y_channel = test_y_channel
        self.color_space = color_space
        self.crop_border = crop_border
        self.data_range = 255

    def forward(self, X, Y):
        assert X.shape == Y.shape, f'Input {X.shape} and reference images should have the same shape'
        X = preprocess_rgb(X, self.test_y_channel, self.data_range, self.color_space).to(torch.float64)
        Y = preprocess_rgb(Y, self.test_y_channel, self.data_range, self.color_space).to(torch.float64)
        return ssim(X, Y, data_range=self.data_range, downsample=self.downsample)

device = torch.device('cuda:0')
sr_model = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
                               torch.nn.Conv2d(16, 3, 3, padding=1), torch.nn.Sigmoid()).to(device)
iqa_ssim = SSIM().to(device)
lq = torch.rand(2, 3, 48, 48, device=device)
gt = torch.rand(2, 3, 48, 48, device=device)
'''
CELL = '''
with torch.no_grad():
    sr = sr_model(lq)
score = iqa_ssim(sr, gt)
print(score.dtype, score.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
