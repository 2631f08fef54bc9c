"""torchmetrics functional SSIM: the Gaussian kernel is created inside the update with the preds' dtype and device.

Source: https://github.com/Lightning-AI/torchmetrics/blob/master/src/torchmetrics/functional/image/ssim.py
`_ssim_update` takes `dtype = preds.dtype` and `device = preds.device` and builds
`_gaussian_kernel_2d(channel, gauss_kernel_size, sigma, dtype, device)` on every call, so a metric
with no tensor state works on float64 cuda images. Look-alike: a tensor created in a helper on
each call beside cuda inputs, with the device passed explicitly. Stand-in: the Gaussian branch of
`_ssim_update` with reflection padding.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

def _gaussian(kernel_size, sigma, dtype, device):
    dist = torch.arange(start=(1 - kernel_size) / 2, end=(1 + kernel_size) / 2, step=1, dtype=dtype, device=device)
    gauss = torch.exp(-torch.pow(dist / sigma, 2) / 2)
    return (gauss / gauss.sum()).unsqueeze(dim=0)

def _gaussian_kernel_2d(channel, kernel_size, sigma, dtype, device):
    gaussian_kernel_x = _gaussian(kernel_size[0], sigma[0], dtype, device)
    gaussian_kernel_y = _gaussian(kernel_size[1], sigma[1], dtype, device)
    kernel = torch.matmul(gaussian_kernel_x.t(), gaussian_kernel_y)
    return kernel.expand(channel, 1, kernel_size[0], kernel_size[1])

def _ssim_update(preds, target, sigma=(1.5, 1.5), kernel_size=(11, 11), data_range=1.0, k1=0.01, k2=0.03):
    channel = preds.size(1)
    dtype, device = preds.dtype, preds.device
    c1, c2 = pow(k1 * data_range, 2), pow(k2 * data_range, 2)
    pad_h, pad_w = (kernel_size[0] - 1) // 2, (kernel_size[1] - 1) // 2
    preds = F.pad(preds, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    target = F.pad(target, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    kernel = _gaussian_kernel_2d(channel, kernel_size, sigma, dtype, device)
    input_list = torch.cat((preds, target, preds * preds, target * target, preds * target))
    outputs = F.conv2d(input_list, kernel, groups=channel)
    output_list = outputs.split(preds.shape[0])
    mu_pred_sq, mu_target_sq = output_list[0].pow(2), output_list[1].pow(2)
    mu_pred_target = output_list[0] * output_list[1]
    sigma_pred_sq = output_list[2] - mu_pred_sq
    sigma_target_sq = output_list[3] - mu_target_sq
    sigma_pred_target = output_list[4] - mu_pred_target
    upper, lower = 2 * sigma_pred_target + c2, sigma_pred_sq + sigma_target_sq + c2
    ssim_idx = ((2 * mu_pred_target + c1) * upper) / ((mu_pred_sq + mu_target_sq + c1) * lower)
    return ssim_idx.reshape(ssim_idx.shape[0], -1).mean(-1)

preds = torch.rand(4, 3, 32, 32, device="cuda:0", dtype=torch.float64)
target = preds * 0.75
'''
CELL = '''
score = _ssim_update(preds, target).mean()
print(score.dtype, score.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
