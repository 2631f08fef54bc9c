"""auraloss `STFTLoss(scale="mel")` on the GPU: the mel filterbank is a plain tensor attribute that `.to(device)` leaves on the CPU.

Source: https://github.com/csteinmetz1/auraloss/issues/34
"MelSTFTLoss does not correctly register filterbanks as buffers": `STFTLoss.__init__` stores
`self.fb = torch.tensor(fb).unsqueeze(0)` (moved only when a `device=` argument is passed), so a loss
moved with `.to(device)` / `.cuda()` keeps its filterbank on the CPU and `torch.matmul(self.fb, x_mag)`
fails against the GPU spectrogram (the STFT window is re-moved in `forward`, the filterbank is not).
The maintainer's fix: register the filterbank as a buffer (`self.register_buffer("fb", fb)`).
Stand-in: `auraloss.freq.STFTLoss` (0.2.x) reduced to the mel path; a random matrix for
`librosa.filters.mel`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch

class SpectralConvergenceLoss(torch.nn.Module):
    def forward(self, x_mag, y_mag):
        return torch.norm(y_mag - x_mag, p="fro") / torch.norm(y_mag, p="fro")

class STFTMagnitudeLoss(torch.nn.Module):
    def __init__(self, log=True):
        super().__init__()
        self.log = log
    def forward(self, x_mag, y_mag):
        if self.log:
            x_mag, y_mag = torch.log(x_mag), torch.log(y_mag)
        return torch.nn.functional.l1_loss(x_mag, y_mag)

class STFTLoss(torch.nn.Module):
    """auraloss.freq.STFTLoss (0.2.x, reduced)."""
    def __init__(self, fft_size=1024, hop_size=256, win_length=1024, window="hann_window",
                 w_sc=1.0, w_log_mag=1.0, w_lin_mag=0.0, sample_rate=None, scale=None,
                 n_bins=None, eps=1e-8, device=None):
        super().__init__()
        self.fft_size, self.hop_size, self.win_length = fft_size, hop_size, win_length
        self.window = getattr(torch, window)(win_length)
        self.w_sc, self.w_log_mag, self.w_lin_mag = w_sc, w_log_mag, w_lin_mag
        self.sample_rate, self.scale, self.n_bins, self.eps = sample_rate, scale, n_bins, eps
        self.device = device
        self.spectralconv = SpectralConvergenceLoss()
        self.logstft = STFTMagnitudeLoss(log=True)
        self.linstft = STFTMagnitudeLoss(log=False)
        # setup mel filterbank
        if self.scale == "mel":
            assert sample_rate != None  # Must set sample rate to use mel scale
            assert n_bins <= fft_size  # Must be more FFT bins than Mel bins
            fb = np.random.rand(n_bins, fft_size // 2 + 1).astype("float32")  # librosa.filters.mel(...)
            self.fb = torch.tensor(fb).unsqueeze(0)
        if scale is not None and device is not None:
            self.fb = self.fb.to(self.device)  # move filterbank to device

    def stft(self, x):
        x_stft = torch.stft(x, self.fft_size, self.hop_size, self.win_length, self.window,
                            return_complex=True)
        x_mag = torch.sqrt(torch.clamp((x_stft.real ** 2) + (x_stft.imag ** 2), min=self.eps))
        return x_mag

    def forward(self, x, y):
        # compute the magnitude and phase spectra of input and target
        self.window = self.window.to(x.device)
        x_mag = self.stft(x.view(-1, x.size(-1)))
        y_mag = self.stft(y.view(-1, y.size(-1)))
        # apply relevant transforms
        if self.scale is not None:
            x_mag = torch.matmul(self.fb, x_mag)
            y_mag = torch.matmul(self.fb, y_mag)
        sc_loss = self.spectralconv(x_mag, y_mag) if self.w_sc else 0.0
        mag_loss = self.logstft(x_mag, y_mag) if self.w_log_mag else 0.0
        lin_loss = self.linstft(x_mag, y_mag) if self.w_lin_mag else 0.0
        return (self.w_sc * sc_loss) + (self.w_log_mag * mag_loss) + (self.w_lin_mag * lin_loss)

device = torch.device("cuda:0")
loss_fn = STFTLoss(fft_size=512, hop_size=128, win_length=512, sample_rate=44100,
                   scale="mel", n_bins=64).to(device)
pred = torch.randn(4, 1, 8192).to(device)        # model output
target = torch.randn(4, 1, 8192).to(device)      # reference audio
'''
CELL = '''
loss = loss_fn(pred, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loss_fn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.fb = torch.tensor(fb).unsqueeze(0)",
    'self.register_buffer("fb", torch.tensor(fb).unsqueeze(0))',
)
CLEAN = False
