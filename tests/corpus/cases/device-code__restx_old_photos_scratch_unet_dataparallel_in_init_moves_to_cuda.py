"""Bringing-Old-Photos-Back-to-Life `--GPU -1 --with_scratch`: the scratch-detection UNet is on the GPU anyway.

Source: https://github.com/microsoft/Bringing-Old-Photos-Back-to-Life/pull/173
Running `python run.py ... --GPU -1 --with_scratch` on a machine that has a GPU failed in
`detection.py` at `P = torch.sigmoid(model(scratch_image_scale))` with "Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same" (issues 151, 67).
`detection.py` only moves the model and the image `if config.GPU >= 0`, but `networks.UNet.__init__`
ends with `self = DataParallelWithCallback(self)` (sync_bn=True), and wrapping in DataParallel moves
the module to `device_ids[0]`, cuda:0, as a side effect. PR 173 ("fixes --with_scratch for CPU
usage", fixes 151 and 67) adds `else: model.cpu()` (and keeps the image on the CPU).
Stand-ins: the UNet reduced to its first block and one BatchNorm down-sample block, a
`DataParallelWithCallback` that, like `nn.DataParallel.__init__`, moves the module to cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import argparse
import torch
import torch.nn as nn

class DataParallelWithCallback(nn.Module):     # sync_batchnorm's DataParallel subclass
    def __init__(self, module, device_ids=None):
        super().__init__()
        self.device_ids = device_ids or [0]
        self.module = module.to(torch.device("cuda", self.device_ids[0]))   # DataParallel: module.to(src_device)

class UNet(nn.Module):
    def __init__(self, in_channels=1, out_channels=1, wf=4, sync_bn=True):
        super().__init__()
        self.first = nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(in_channels, 2 ** wf, kernel_size=7),
                                   nn.LeakyReLU(0.2, True))
        self.down_sample = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(2 ** wf, 2 ** wf, kernel_size=3),
                                         nn.BatchNorm2d(2 ** wf), nn.LeakyReLU(0.2, True))
        self.last = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(2 ** wf, out_channels, kernel_size=3))
        if sync_bn:
            self = DataParallelWithCallback(self)

    def forward(self, x):
        x = self.first(x)
        x = self.down_sample(x)
        return self.last(x)

config = argparse.Namespace(GPU=-1, input_size="full_size")      # run.py --GPU -1 --with_scratch
model = UNet(in_channels=1, out_channels=1, wf=4, sync_bn=True)
if config.GPU >= 0:
    model.to(config.GPU)
model.eval()

scratch_image_scale = torch.rand(1, 1, 64, 48) * 2 - 1            # ToTensor + Normalize([0.5], [0.5]) + scale_tensor
if config.GPU >= 0:
    scratch_image_scale = scratch_image_scale.to(config.GPU)
'''
CELL = '''
with torch.no_grad():
    P = torch.sigmoid(model(scratch_image_scale))
'''
EXPECT_ERROR = ("Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor)",
                "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
