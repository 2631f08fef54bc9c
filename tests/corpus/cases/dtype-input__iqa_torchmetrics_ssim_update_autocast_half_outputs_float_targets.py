"""torchmetrics `StructuralSimilarityIndexMeasure` fed autocast outputs: float16 `outputs` against float32 `targets`.

Source: https://github.com/Lightning-AI/torchmetrics/issues/1453
In mixed-precision training `outputs = model(samples)` under `autocast()` is float16 while `targets`
stay float32, and `metric(outputs, targets)` fails in `_ssim_check_inputs`, which requires both to
have the same dtype. The reporter asks for the targets to be cast to the outputs' type
(`targets.as_type(preds)`), which is what the user does before calling the metric.
Stand-in: `StructuralSimilarityIndexMeasure` of torchmetrics 0.11 (input check, Gaussian-kernel SSIM
accumulated as a sum state) on a minimal `Metric` base; the autocast output is made half explicitly
(CPU autocast would give bfloat16); CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn.functional as F

def _check_same_shape(preds, target):
    if preds.shape != target.shape:
        raise RuntimeError(
            f"Predictions and targets are expected to have the same shape, but got {preds.shape} and {target.shape}."
        )

def _ssim_check_inputs(preds, target):
    if preds.dtype != target.dtype:
        raise TypeError(
            "Expected `preds` and `target` to have the same data type."
            f" Got preds: {preds.dtype} and target: {target.dtype}."
        )
    _check_same_shape(preds, target)
    if len(preds.shape) not in (4, 5):
        raise ValueError(f"Expected `preds` and `target` to have BxCxHxW or BxCxDxHxW shape. Got preds: {preds.shape}.")
    return preds, target

def _gaussian_kernel_2d(channel, kernel_size, sigma, dtype, device):
    def _gaussian(k, s):
        dist = torch.arange(start=(1 - k) / 2, end=(1 + k) / 2, step=1, dtype=dtype, device=device)
        gauss = torch.exp(-torch.pow(dist / s, 2) / 2)
        return (gauss / gauss.sum()).unsqueeze(dim=0)
    kernel = torch.matmul(_gaussian(kernel_size[0], sigma[0]).t(), _gaussian(kernel_size[1], sigma[1]))
    return kernel.expand(channel, 1, kernel_size[0], kernel_size[1])

def _ssim_update(preds, target, kernel_size=(11, 11), sigma=(1.5, 1.5), data_range=1.0, k1=0.01, k2=0.03):
    c1, c2 = pow(k1 * data_range, 2), pow(k2 * data_range, 2)
    channel = preds.size(1)
    kernel = _gaussian_kernel_2d(channel, kernel_size, sigma, preds.dtype, preds.device)
    pad_h, pad_w = (kernel_size[0] - 1) // 2, (kernel_size[1] - 1) // 2
    preds = F.pad(preds, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    target = F.pad(target, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    input_list = torch.cat((preds, target, preds * preds, target * target, preds * target))
    outputs = F.conv2d(input_list, kernel, groups=channel)
    b = preds.shape[0]
    output_list = outputs.split(b)
    mu_pred_sq = output_list[0].pow(2)
    mu_target_sq = output_list[1].pow(2)
    mu_pred_target = output_list[0] * output_list[1]
    sigma_pred_sq = output_list[2] - mu_pred_sq
    sigma_target_sq = output_list[3] - mu_target_sq
    sigma_pred_target = output_list[4] - mu_pred_target
    upper = 2 * sigma_pred_target.to(preds.dtype) + c2
    lower = (sigma_pred_sq + sigma_target_sq).to(preds.dtype) + c2
    ssim_idx = ((2 * mu_pred_target + c1) * upper) / ((mu_pred_sq + mu_target_sq + c1) * lower)
    ssim_idx = ssim_idx[..., pad_h:-pad_h, pad_w:-pad_w]
    return ssim_idx.reshape(b, -1).mean(-1)

class Metric(torch.nn.Module):                     # stand-in for torchmetrics.Metric
    def add_state(self, name, default):
        setattr(self, name, default.clone())
    def forward(self, *args):
        self.update(*args)
        return self.compute()

class StructuralSimilarityIndexMeasure(Metric):
    def __init__(self, gaussian_kernel=True, sigma=1.5, kernel_size=11, data_range=1.0, k1=0.01, k2=0.03):
        super().__init__()
        self.kernel_size, self.sigma = (kernel_size, kernel_size), (sigma, sigma)
        self.data_range, self.k1, self.k2 = data_range, k1, k2
        self.add_state("similarity", torch.tensor(0.0))
        self.add_state("total", torch.tensor(0.0))

    def update(self, preds, target):
        preds, target = _ssim_check_inputs(preds, target)
        similarity = _ssim_update(preds, target, self.kernel_size, self.sigma, self.data_range, self.k1, self.k2)
        self.similarity += similarity.sum()
        self.total += preds.shape[0]

    def compute(self):
        return self.similarity / self.total

model = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(16, 3, 3, padding=1))
metric = StructuralSimilarityIndexMeasure()
samples = torch.rand(4, 3, 48, 48)
targets = torch.rand(4, 3, 48, 48)
with torch.no_grad():
    outputs = model(samples).half()        # with autocast(): outputs.dtype == torch.float16
'''
CELL = '''
score = metric(outputs, targets)
'''
EXPECT_ERROR = "Expected `preds` and `target` to have the same data type"
CULPRITS = ["targets"]
FIX = "namespace"
REFERENCE_FIX = '''
targets = targets.to(outputs.dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
