"""Spectral optimal transport loss moved with `loss.to('cuda')`: the STFT window is a plain tensor attribute and stays behind.

Source: https://github.com/bernardo-torres/spectral-optimal-transport/issues/3
"When calling `loss.to('cuda')` and passing GPU tensors into the forward pass, a RuntimeError occurs because
PyTorch detects some tensors on the GPU and others on the CPU." `Wasserstein1DLoss` (1D Wasserstein
distance between spectra) builds an `STFT` transform module whose analysis window was kept as a plain
tensor attribute, which `Module.to()` does not move; the fix registers it (and the bin positions) with
`register_buffer` "so the tensor is moved to the correct device with the model". Stand-ins: the STFT as
framing x window x rFFT, the quantile-based `wasserstein_1d`; meta plays the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import math
import torch
import torch.nn as nn

def flattop(n):
    a = [0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368]
    k = torch.arange(n, dtype=torch.float32)
    return sum(((-1) ** i) * a_i * torch.cos(2 * math.pi * i * k / n) for i, a_i in enumerate(a))

class STFT(nn.Module):
    def __init__(self, fft_size=256, hop_length=64, window="flattop"):
        super().__init__()
        self.fft_size = fft_size
        self.hop_size = hop_length
        self.window = flattop(fft_size)            # plain attribute: Module.to() does not see it

    def get_bin_positions(self):
        return torch.linspace(0, 1, self.fft_size // 2 + 1)

    def forward(self, x):
        frames = x.unfold(-1, self.fft_size, self.hop_size)      # (batch, n_frames, fft_size)
        return torch.abs(torch.fft.rfft(frames * self.window, dim=-1))

def wasserstein_1d(u_values, v_values, u_weights, v_weights, p=2):
    u_cw = torch.cumsum(u_weights, -1)
    v_cw = torch.cumsum(v_weights, -1)
    qs = torch.sort(torch.cat((u_cw, v_cw), -1), -1)[0]
    u_q = torch.take_along_dim(u_values, torch.searchsorted(u_cw, qs).clamp(0, u_values.shape[-1] - 1), dim=-1)
    v_q = torch.take_along_dim(v_values, torch.searchsorted(v_cw, qs).clamp(0, v_values.shape[-1] - 1), dim=-1)
    delta = torch.diff(torch.nn.functional.pad(qs, (1, 0)), dim=-1)
    return torch.sum(delta * torch.abs(u_q - v_q) ** p, -1)

class Wasserstein1DLoss(nn.Module):
    def __init__(self, transform="stft", fft_size=256, hop_length=64, p=2, eps=1e-8):
        super().__init__()
        self.transform_module = STFT(fft_size=fft_size, hop_length=hop_length)
        self.bin_positions = self.transform_module.get_bin_positions()
        self.p, self.eps = p, eps

    def forward(self, x, y):
        device = x.device
        x_spec = self.transform_module(x)
        y_spec = self.transform_module(y)
        pos = self.bin_positions.to(device).expand_as(x_spec)
        x_w = x_spec / (x_spec.sum(-1, keepdim=True) + self.eps)
        y_w = y_spec / (y_spec.sum(-1, keepdim=True) + self.eps)
        return wasserstein_1d(pos, pos, x_w, y_w, p=self.p).mean()

device = "meta"                      # "cuda" in the report
loss = Wasserstein1DLoss(transform="stft", fft_size=256, hop_length=64)
loss.to(device)
x = torch.randn(4, 2048, device=device)
y = torch.randn(4, 2048, device=device)
'''
CELL = '''
l = loss(x, y)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["loss.transform_module.window"]
FIX = "namespace"
REFERENCE_FIX = '''
loss.transform_module.window = loss.transform_module.window.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
