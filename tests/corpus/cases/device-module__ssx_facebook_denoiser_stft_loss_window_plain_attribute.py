"""facebookresearch/denoiser: the multi-resolution STFT loss keeps its window as a plain attribute, so it stays on the CPU.

Source: https://github.com/facebookresearch/denoiser/issues/27
Fine-tuning the Demucs denoiser on a GPU with `stft_loss: true` failed in `stft_loss.py` at
`x_stft = torch.stft(x, fft_size, hop_size, win_length, window)` with "Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu!". `STFTLoss.__init__` stored
`self.window = getattr(torch, window)(win_length)`: a plain tensor attribute that `Module.to()`
never moves. The maintainer's fix (commit 767c73f, "Update stft_loss.py") registers it as a buffer,
`self.register_buffer("window", ...)`, and the solver moves the loss with `.to(self.device)`
(commit 3c28833). Here the loss is already moved with `.to(device)`, which shows `.to()` cannot
reach the plain attribute; the edit is the buffer registration. Current PyTorch words the error
"stft input and window must be on the same device".
Stand-ins: a two-layer conv model in place of Demucs; `stft` uses `return_complex=True` +
`view_as_real` (the 2020 call without it is an error in current PyTorch).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def stft(x, fft_size, hop_size, win_length, window):
    x_stft = torch.view_as_real(torch.stft(x, fft_size, hop_size, win_length, window,
                                           return_complex=True))
    real = x_stft.select(-1, 0)
    imag = x_stft.select(-1, 1)
    return torch.sqrt(torch.clamp(real ** 2 + imag ** 2, min=1e-7)).transpose(2, 1)

class SpectralConvergengeLoss(nn.Module):
    def forward(self, x_mag, y_mag):
        return torch.norm(y_mag - x_mag, p="fro") / torch.norm(y_mag, p="fro")

class LogSTFTMagnitudeLoss(nn.Module):
    def forward(self, x_mag, y_mag):
        return F.l1_loss(torch.log(y_mag), torch.log(x_mag))

class STFTLoss(nn.Module):
    def __init__(self, fft_size=1024, shift_size=120, win_length=600, window="hann_window"):
        super(STFTLoss, self).__init__()
        self.fft_size = fft_size
        self.shift_size = shift_size
        self.win_length = win_length
        self.window = getattr(torch, window)(win_length)
        self.spectral_convergenge_loss = SpectralConvergengeLoss()
        self.log_stft_magnitude_loss = LogSTFTMagnitudeLoss()

    def forward(self, x, y):
        x_mag = stft(x, self.fft_size, self.shift_size, self.win_length, self.window)
        y_mag = stft(y, self.fft_size, self.shift_size, self.win_length, self.window)
        sc_loss = self.spectral_convergenge_loss(x_mag, y_mag)
        mag_loss = self.log_stft_magnitude_loss(x_mag, y_mag)
        return sc_loss, mag_loss

class MultiResolutionSTFTLoss(nn.Module):
    def __init__(self, fft_sizes=[1024, 2048, 512], hop_sizes=[120, 240, 50],
                 win_lengths=[600, 1200, 240], window="hann_window", factor_sc=0.1, factor_mag=0.1):
        super(MultiResolutionSTFTLoss, self).__init__()
        self.stft_losses = nn.ModuleList()
        for fs, ss, wl in zip(fft_sizes, hop_sizes, win_lengths):
            self.stft_losses += [STFTLoss(fs, ss, wl, window)]
        self.factor_sc = factor_sc
        self.factor_mag = factor_mag

    def forward(self, x, y):
        sc_loss = 0.0
        mag_loss = 0.0
        for f in self.stft_losses:
            sc_l, mag_l = f(x, y)
            sc_loss += sc_l
            mag_loss += mag_l
        sc_loss /= len(self.stft_losses)
        mag_loss /= len(self.stft_losses)
        return self.factor_sc * sc_loss, self.factor_mag * mag_loss

class Demucs(nn.Module):
    """denoiser.demucs.Demucs (stand-in): (B, 1, T) -> (B, 1, T)."""
    def __init__(self, hidden=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, hidden, 8, padding=4), nn.ReLU(),
                                 nn.Conv1d(hidden, 1, 9, padding=4))

    def forward(self, mix):
        return self.net(mix)[..., : mix.shape[-1]]

device = "cuda:0"                               # args.device
model = Demucs().to(device)
mrstftloss = MultiResolutionSTFTLoss(factor_sc=0.5, factor_mag=0.5).to(device)
noisy = torch.randn(4, 1, 16000).to(device)     # noisy, clean = [x.to(self.device) for x in data]
clean = torch.randn(4, 1, 16000).to(device)
'''
CELL = '''
estimate = model(noisy)
loss = F.l1_loss(clean, estimate)
sc_loss, mag_loss = mrstftloss(estimate.squeeze(1), clean.squeeze(1))
loss += sc_loss + mag_loss
'''
EXPECT_ERROR = "stft input and window must be on the same device"
CULPRITS = ["mrstftloss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.window = getattr(torch, window)(win_length)",
                  'self.register_buffer("window", getattr(torch, window)(win_length))')
CLEAN = False
