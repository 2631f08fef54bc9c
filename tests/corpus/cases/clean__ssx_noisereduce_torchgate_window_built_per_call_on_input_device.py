"""noisereduce `TorchGate` on the GPU: the STFT window is created on the CPU inside `forward` and moved to `x.device`; the smoothing filter is a buffer.

Source: https://github.com/timsainb/noisereduce/blob/master/noisereduce/torchgate/torchgate.py
The README usage is `tg = TG(sr=8000, nonstationary=True).to(device)` then `tg(noisy_speech)` with
the signal on `device`. `forward` calls `torch.stft(..., window=torch.hann_window(self.win_length)
.to(x.device))`, the non-stationary mask builds its moving-average kernel with
`device=X_abs.device`, and the 2-D `smoothing_filter` is a registered buffer, so `.to(device)` moved
it. Look-alike: CPU-born windows and filters meeting CUDA audio; it runs.
Stand-ins: `TorchGate` reduced to the non-stationary path; the filter is built with torch.linspace
(noisereduce's own `linspace` helper); the final `torch.istft` is left out (the fake-CUDA simulation
cannot run it) and the masked STFT is returned.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch.nn.functional import conv1d, conv2d

def temperature_sigmoid(x, x0, temp_coeff):
    return torch.sigmoid((x - x0) / temp_coeff)

class TorchGate(torch.nn.Module):
    def __init__(self, sr, nonstationary=False, n_std_thresh_stationary=1.5,
                 n_thresh_nonstationary=1.3, temp_coeff_nonstationary=0.1,
                 n_movemean_nonstationary=20, prop_decrease=1.0, n_fft=1024, win_length=None,
                 hop_length=None, freq_mask_smooth_hz=500, time_mask_smooth_ms=50):
        super().__init__()
        self.sr = sr
        self.nonstationary = nonstationary
        self.n_thresh_nonstationary = n_thresh_nonstationary
        self.temp_coeff_nonstationary = temp_coeff_nonstationary
        self.n_movemean_nonstationary = n_movemean_nonstationary
        self.prop_decrease = prop_decrease
        self.n_fft = n_fft
        self.win_length = self.n_fft if win_length is None else win_length
        self.hop_length = self.win_length // 4 if hop_length is None else hop_length
        self.freq_mask_smooth_hz = freq_mask_smooth_hz
        self.time_mask_smooth_ms = time_mask_smooth_ms
        self.register_buffer("smoothing_filter", self._generate_mask_smoothing_filter())

    def _generate_mask_smoothing_filter(self):
        n_grad_freq = int(self.freq_mask_smooth_hz / (self.sr / (self.n_fft / 2)))
        n_grad_time = int(self.time_mask_smooth_ms / ((self.hop_length / self.sr) * 1000))
        v_f = torch.cat([torch.linspace(0, 1, n_grad_freq + 2)[:-1],
                         torch.linspace(1, 0, n_grad_freq + 2)])[1:-1]
        v_t = torch.cat([torch.linspace(0, 1, n_grad_time + 2)[:-1],
                         torch.linspace(1, 0, n_grad_time + 2)])[1:-1]
        smoothing_filter = torch.outer(v_f, v_t).unsqueeze(0).unsqueeze(0)
        return smoothing_filter / smoothing_filter.sum()

    def _nonstationary_mask(self, X_abs):
        X_smoothed = (
            conv1d(
                X_abs.reshape(-1, 1, X_abs.shape[-1]),
                torch.ones(self.n_movemean_nonstationary, dtype=X_abs.dtype,
                           device=X_abs.device).view(1, 1, -1),
                padding="same",
            ).view(X_abs.shape)
            / self.n_movemean_nonstationary
        )
        slowness_ratio = (X_abs - X_smoothed) / X_smoothed
        return temperature_sigmoid(slowness_ratio, self.n_thresh_nonstationary,
                                   self.temp_coeff_nonstationary)

    def forward(self, x, xn=None):
        assert x.ndim == 2
        X = torch.stft(
            x, n_fft=self.n_fft, hop_length=self.hop_length, win_length=self.win_length,
            return_complex=True, pad_mode="constant", center=True,
            window=torch.hann_window(self.win_length).to(x.device),
        )
        sig_mask = self._nonstationary_mask(X.abs())
        sig_mask = self.prop_decrease * (sig_mask * 1.0 - 1.0) + 1.0
        if self.smoothing_filter is not None:
            sig_mask = conv2d(sig_mask.unsqueeze(1), self.smoothing_filter.to(sig_mask.dtype),
                              padding="same")
        Y = X * sig_mask.squeeze(1)
        return Y                                   # torch.istft(Y, ...) in the library

device = torch.device("cuda:0")
tg = TorchGate(sr=8000, nonstationary=True).to(device)
noisy_speech = torch.randn(3, 32000, device=device)
'''
CELL = '''
enhanced_spec = tg(noisy_speech)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
