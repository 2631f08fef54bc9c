"""torchmetrics PeakSignalNoiseRatio created and called on CUDA tensors without moving the metric.

Source: https://github.com/Lightning-AI/torchmetrics/issues/1047
`psnr_loss = PeakSignalNoiseRatio(); avg_psnr = psnr_loss(preds.cuda(), target.cuda())` raised
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
Maintainer: "it is expected, that you need to have also the metric on the same device". A Metric is
a Module whose `add_state` tensors (`sum_squared_error`, `total`) are registered on the CPU and
accumulated in place by `update`. Stand-in: a Metric reduced to its states, update and compute.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn

class PeakSignalNoiseRatio(nn.Module):
    def __init__(self, data_range=1.0):
        super().__init__()
        self.data_range = data_range
        self.register_buffer("sum_squared_error", torch.zeros(1))
        self.register_buffer("total", torch.zeros(1))

    def update(self, preds, target):
        self.sum_squared_error += torch.sum((preds - target) ** 2).reshape(1)
        self.total += torch.tensor([float(target.numel())], device=target.device)

    def compute(self):
        mse = self.sum_squared_error / self.total
        return 10 * torch.log10(torch.tensor(self.data_range ** 2, device=mse.device) / mse)

    def forward(self, preds, target):
        self.update(preds, target)
        return self.compute()

preds = torch.rand([3, 128, 128], generator=torch.manual_seed(42))
target = preds * 0.75
preds = preds.to("cuda:0")
target = target.to("cuda:0")
psnr_loss = PeakSignalNoiseRatio()
'''
CELL = '''
avg_psnr = psnr_loss(preds, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["psnr_loss"]
FIX = "namespace"
REFERENCE_FIX = '''
psnr_loss = psnr_loss.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
