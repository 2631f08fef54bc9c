"""torchaudio's `MelSpectrogram` on a float64 waveform: the mel filterbank buffer is float32.

Source: https://github.com/pytorch/audio/issues/1753
"Type inconsistencies when using MelSpectrogram": the user's sine wave came from numpy (float64);
`Spectrogram()(waveform.double())` worked, but `MelSpectrogram(sample_rate=44100)(waveform.double())`
raised "expected scalar type Double but found Float" unless `torch.set_default_dtype(torch.float64)`.
A maintainer (mthrok): "This is working as expected. `MelSpectrogram` is a stateful model building
block ... the idiom is to move the parameters to the desired device and data type" - the
filterbank `mel_scale.fb` is a float32 buffer. Stand-in: `MelSpectrogram` = `Spectrogram` +
`MelScale` with the same buffers (filterbank values random).
"""

SIM = "cpu"
FAMILY = "dtype-input"
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

# generate 1 second of a sine wave
waveform = torch.from_numpy(np.sin(2 * np.pi * 440.0 * (np.arange(44100) / 44100)))
spectrogram_double = Spectrogram()(waveform.double())          # regular spectrograms work
mel_spectrogram = MelSpectrogram(sample_rate=44100)
'''
CELL = '''
spectrogram_double = mel_spectrogram(waveform.double())
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected scalar type Double but found Float")
CULPRITS = ["mel_spectrogram.mel_scale.fb"]
FIX = "namespace"
REFERENCE_FIX = '''
mel_spectrogram = mel_spectrogram.to(torch.float64)
'''
REFERENCE_EDIT = None
CLEAN = False
