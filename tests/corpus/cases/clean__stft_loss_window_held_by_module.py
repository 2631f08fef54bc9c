"""Look-alike: the STFT loss helper made an nn.Module, so `criterion_gen.cuda()` carries its window along.

Source: https://github.com/mozilla/TTS/issues/619
The reporter's fix: subclass `torch.nn.Module` and hold the window as a non-trainable parameter,
"this way the `.cuda()` will transfer the window to cuda and stft will work". Signal, window and
generator all on the GPU; a window tensor inside a loss object is not a stray here.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TorchSTFT(nn.Module):
    def __init__(self, n_fft, hop_length, win_length, window="hann_window"):
        super().__init__()
        self.n_fft, self.hop_length, self.win_length = n_fft, hop_length, win_length
        self.window = nn.Parameter(getattr(torch, window)(win_length), requires_grad=False)

    def forward(self, x):
        o = torch.stft(x, self.n_fft, self.hop_length, self.win_length, self.window,
                       center=True, pad_mode="reflect", normalized=False, onesided=True,
                       return_complex=True)
        return torch.clamp(o.abs() ** 2, min=1e-8).sqrt()

class STFTLoss(nn.Module):
    def __init__(self, n_fft=1024, hop_length=120, win_length=600):
        super().__init__()
        self.stft = TorchSTFT(n_fft, hop_length, win_length)

    def forward(self, y_hat, y):
        y_hat_M, y_M = self.stft(y_hat), self.stft(y)
        loss_mag = nn.functional.l1_loss(torch.log(y_M), torch.log(y_hat_M))
        loss_sc = torch.norm(y_M - y_hat_M, p="fro") / torch.norm(y_M, p="fro")
        return loss_mag + loss_sc

device = torch.device("cuda:0")
model_gen = nn.Conv1d(80, 1, 7, padding=3).to(device)
criterion_gen = STFTLoss()
criterion_gen.to(device)
mel = torch.randn(2, 80, 4096).to(device)
y = torch.randn(2, 4096).to(device)
'''
CELL = '''
y_hat = model_gen(mel).squeeze(1)
loss_g = criterion_gen(y_hat, y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
