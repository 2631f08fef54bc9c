"""Look-alike: a float64 waveform through a torchaudio `MelSpectrogram` that was itself converted with `.to(torch.float64)`.

Source: https://github.com/pytorch/audio/issues/1753
In "Type inconsistencies when using MelSpectrogram" the maintainer (mthrok) answered that
`MelSpectrogram` is a stateful `nn.Module` and "the idiom to use `torch.nn.Modules` is to move the
parameters to the desired device and data type" - `transform.to(torch.float64)`. Done that way, the
double-precision sine wave from numpy goes through the window and the mel filterbank (both
float64 buffers now) without any cast: float64 data is correct here. Stand-in: `MelSpectrogram` =
`Spectrogram` + `MelScale` with the same buffers.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Spectrogram(nn.Module):
    def __init__(self, n_fft=400, power=2.0):
        super().__init__()
        self.n_fft, self.hop_length, self.power = n_fft, n_fft // 2, power
        self.register_buffer("window", torch.hann_window(n_fft))

    def forward(self, waveform):
        spec = torch.stft(waveform, self.n_fft, self.hop_length, window=self.window,
                          return_complex=True)
        return spec.abs().pow(self.power)

class MelScale(nn.Module):
    def __init__(self, n_mels=128, sample_rate=16000, n_stft=201):
        super().__init__()
        self.register_buffer("fb", torch.rand(n_stft, n_mels))     # melscale_fbanks(...)

    def forward(self, specgram):
        return torch.matmul(specgram.transpose(-1, -2), self.fb).transpose(-1, -2)

class MelSpectrogram(nn.Module):
    def __init__(self, sample_rate=16000, n_fft=400, n_mels=128):
        super().__init__()
        self.spectrogram = Spectrogram(n_fft=n_fft)
        self.mel_scale = MelScale(n_mels, sample_rate, n_fft // 2 + 1)

    def forward(self, waveform):
        return self.mel_scale(self.spectrogram(waveform))

waveform = torch.from_numpy(np.sin(2 * np.pi * 440.0 * (np.arange(44100) / 44100)))   # float64
mel_spectrogram = MelSpectrogram(sample_rate=44100).to(torch.float64)
'''
CELL = '''
spectrogram_double = mel_spectrogram(waveform)
log_mel = torch.log(spectrogram_double + 1e-10)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
