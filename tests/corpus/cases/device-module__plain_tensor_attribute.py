"""A constant tensor stored as a plain attribute in `__init__`: `.cuda()` leaves it on the CPU.

Source: https://github.com/pytorch/audio/pull/457
`TimeStretch` kept `self.phase_advance = torch.linspace(...)[..., None]`; after
`TimeStretch().cuda()` the forward mixed it with the CUDA spectrogram ("expected device cuda:0 but
got device cpu"); the fix registers it as a buffer. Stand-in: the phase update of the vocoder.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn

class TimeStretch(nn.Module):
    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None):
        super().__init__()
        n_fft = (n_freq - 1) * 2
        hop_length = hop_length if hop_length is not None else n_fft // 2
        self.fixed_rate = fixed_rate
        self.phase_advance = torch.linspace(0, math.pi * hop_length, n_freq)[..., None]

    def forward(self, phase_0, phase_1):
        phase = phase_1 - phase_0 - self.phase_advance
        phase = phase - 2 * math.pi * torch.round(phase / (2 * math.pi))
        return phase + self.phase_advance

stretch = TimeStretch().to("cuda:0")
phase_0 = torch.randn(1, 2, 201, 400, device="cuda:0")
phase_1 = torch.randn(1, 2, 201, 400, device="cuda:0")
'''
CELL = '''
phase_acc = stretch(phase_0, phase_1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["stretch.phase_advance"]
FIX = "namespace"
REFERENCE_FIX = '''
stretch.phase_advance = stretch.phase_advance.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
