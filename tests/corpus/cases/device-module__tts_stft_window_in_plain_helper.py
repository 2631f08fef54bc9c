"""Vocoder GAN loss: `criterion_gen.cuda()` moves the loss module, not the STFT helper's window.

Source: https://github.com/mozilla/TTS/issues/619
"torch.stft fails with 'Expected all tensors to be on the same device'": the reporter traced it to
`TorchSTFT` in `TTS/vocoder/losses.py`, a plain class (not an nn.Module) keeping
`self.window = getattr(torch, window)(win_length)`. `criterion_gen.cuda()` never reaches it, so
`torch.stft` got a CUDA signal and a CPU window; the fix made TorchSTFT a module holding the window.
Stand-in: the same helper inside a multi-resolution STFT loss (newer PyTorch words the error as
"stft input and window must be on the same device").
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class TorchSTFT():
    def __init__(self, n_fft, hop_length, win_length, window="hann_window"):
        self.n_fft = n_fft
        self.hop_length = hop_length
        self.win_length = win_length
        self.window = getattr(torch, window)(win_length)

    def __call__(self, x):
        o = torch.stft(x, self.n_fft, self.hop_length, self.win_length, self.window,
                       center=True, pad_mode="reflect", normalized=False, onesided=True,
                       return_complex=True)
        return torch.clamp(o.abs() ** 2, min=1e-8).sqrt()

class STFTLoss(nn.Module):
    def __init__(self, n_fft, hop_length, win_length):
        super().__init__()
        self.stft = TorchSTFT(n_fft, hop_length, win_length)

    def forward(self, y_hat, y):
        y_hat_M, y_M = self.stft(y_hat), self.stft(y)
        loss_mag = nn.functional.l1_loss(torch.log(y_M), torch.log(y_hat_M))
        loss_sc = torch.norm(y_M - y_hat_M, p="fro") / torch.norm(y_M, p="fro")
        return loss_mag, loss_sc

class GeneratorLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.stft_loss = STFTLoss(n_fft=1024, hop_length=120, win_length=600)

    def forward(self, y_hat, y):
        loss_mag, loss_sc = self.stft_loss(y_hat, y)
        return loss_mag + loss_sc

device = torch.device("cuda:0")
model_gen = nn.Conv1d(80, 1, 7, padding=3).to(device)
criterion_gen = GeneratorLoss()
criterion_gen.cuda()
mel = torch.randn(2, 80, 4096).to(device)
y = torch.randn(2, 4096).to(device)
'''
CELL = '''
y_hat = model_gen(mel).squeeze(1)
loss_g = criterion_gen(y_hat, y)
'''
EXPECT_ERROR = ("stft input and window must be on the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["criterion_gen.stft_loss.stft.window"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion_gen.stft_loss.stft.window = criterion_gen.stft_loss.stft.window.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
