"""pytorch_lightning's functional `ssim` under 16-bit precision: float32 `preds` against a float16 `target`.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/6383
"ssim functional metric not working with 16 bit precision": without `precision=16` it works, with it
`TypeError: Expected `preds` and `target` to have the same data type. Got pred: torch.float32 and
target: torch.float16.` A maintainer points at the explicit dtype check in `_ssim_update`, and
shows that casting both tensors to half does not help either (half SSIM unsupported there); the
fix used here follows from that: keep both in float32 by casting the half `target` back. Stand-in: `pytorch_lightning.metrics.functional.ssim`
(1.2.x: update check, Gaussian kernel in `preds`' dtype, reflect padding, one grouped conv); the
LightningModule is a conv net; CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn.functional as F

def _check_same_shape(pred, target):
    if pred.shape != target.shape:
        raise RuntimeError("Predictions and targets are expected to have the same shape")

def _gaussian(kernel_size, sigma, dtype, device):
    dist = torch.arange(start=(1 - kernel_size) / 2, end=(1 + kernel_size) / 2, step=1, dtype=dtype, device=device)
    gauss = torch.exp(-torch.pow(dist / sigma, 2) / 2)
    return (gauss / gauss.sum()).unsqueeze(dim=0)  # (1, kernel_size)

def _gaussian_kernel(channel, kernel_size, sigma, dtype, device):
    gaussian_kernel_x = _gaussian(kernel_size[0], sigma[0], dtype, device)
    gaussian_kernel_y = _gaussian(kernel_size[1], sigma[1], dtype, device)
    kernel = torch.matmul(gaussian_kernel_x.t(), gaussian_kernel_y)  # (kernel_size, 1) * (1, kernel_size)
    return kernel.expand(channel, 1, kernel_size[0], kernel_size[1])

def _ssim_update(preds, target):
    if preds.dtype != target.dtype:
        raise TypeError(
            "Expected `preds` and `target` to have the same data type."
            f" Got pred: {preds.dtype} and target: {target.dtype}."
        )
    _check_same_shape(preds, target)
    if len(preds.shape) != 4:
        raise ValueError(
            "Expected `preds` and `target` to have BxCxHxW shape."
            f" Got pred: {preds.shape} and target: {target.shape}."
        )
    return preds, target

def _ssim_compute(preds, target, kernel_size=(11, 11), sigma=(1.5, 1.5), reduction="elementwise_mean",
                  data_range=None, k1=0.01, k2=0.03):
    if data_range is None:
        data_range = max(preds.max() - preds.min(), target.max() - target.min())
    c1 = pow(k1 * data_range, 2)
    c2 = pow(k2 * data_range, 2)
    device = preds.device
    channel = preds.size(1)
    dtype = preds.dtype
    kernel = _gaussian_kernel(channel, kernel_size, sigma, dtype, device)
    pad_w = (kernel_size[0] - 1) // 2
    pad_h = (kernel_size[1] - 1) // 2
    preds = F.pad(preds, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    target = F.pad(target, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    input_list = torch.cat((preds, target, preds * preds, target * target, preds * target))  # (5 * B, C, H, W)
    outputs = F.conv2d(input_list, kernel, groups=channel)
    output_list = [outputs[x * preds.size(0):(x + 1) * preds.size(0)] for x in range(len(outputs))]
    mu_pred_sq = output_list[0].pow(2)
    mu_target_sq = output_list[1].pow(2)
    mu_pred_target = output_list[0] * output_list[1]
    sigma_pred_sq = output_list[2] - mu_pred_sq
    sigma_target_sq = output_list[3] - mu_target_sq
    sigma_pred_target = output_list[4] - mu_pred_target
    upper = 2 * sigma_pred_target + c2
    lower = sigma_pred_sq + sigma_target_sq + c2
    ssim_idx = ((2 * mu_pred_target + c1) * upper) / ((mu_pred_sq + mu_target_sq + c1) * lower)
    ssim_idx = ssim_idx[..., pad_h:-pad_h, pad_w:-pad_w]
    return ssim_idx.mean()

def ssim(preds, target, kernel_size=(11, 11), sigma=(1.5, 1.5), reduction="elementwise_mean",
         data_range=None, k1=0.01, k2=0.03):
    preds, target = _ssim_update(preds, target)
    return _ssim_compute(preds, target, kernel_size, sigma, reduction, data_range, k1, k2)

model = torch.nn.Sequential(torch.nn.Conv2d(1, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(8, 1, 3, padding=1))
x = torch.rand(16, 1, 32, 32)
target = torch.rand(16, 1, 32, 32).half()     # the batch as the precision=16 run hands it over
preds = model(x)                              # float32 output of the LightningModule
'''
CELL = '''
val_ssim = ssim(preds, target)
'''
EXPECT_ERROR = "Expected `preds` and `target` to have the same data type"
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.float()
'''
REFERENCE_EDIT = None
CLEAN = False
