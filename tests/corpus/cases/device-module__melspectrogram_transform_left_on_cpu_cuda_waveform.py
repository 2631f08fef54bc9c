"""A MelSpectrogram transform built on the CPU applied to a waveform moved to the GPU.

Source: https://github.com/pytorch/pytorch/issues/123167
"Calling MelSpectrogram from torchaudio.transforms on a cuda-tensor fails without setting explicitly
default device to CUDA": the user moved `frequency_tensor` to `target_device` but created
`torchaudio.transforms.MelSpectrogram(...)` without moving it, so its window (and mel filterbank)
buffers stayed on the CPU; it only worked with `torch.set_default_device`. The transform is a module
and has to be moved with `.to(target_device)`. Stand-in: MelSpectrogram = Spectrogram (hann window
buffer, torch.stft) + MelScale (filterbank buffer), as in torchaudio.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Spectrogram(nn.Module):
    def __init__(self, n_fft=1024, hop_length=None, power=2.0):
        super().__init__()
        self.n_fft = n_fft
        self.hop_length = hop_length if hop_length is not None else n_fft // 2
        self.power = power
        self.register_buffer("window", torch.hann_window(n_fft))

    def forward(self, waveform):
        spec = torch.stft(waveform, self.n_fft, self.hop_length, window=self.window,
                          center=True, return_complex=True)
        return spec.abs().pow(self.power)

class MelScale(nn.Module):
    def __init__(self, n_mels=128, n_stft=513):
        super().__init__()
        self.register_buffer("fb", torch.rand(n_stft, n_mels))

    def forward(self, specgram):
        return torch.matmul(specgram.transpose(-1, -2), self.fb).transpose(-1, -2)

class MelSpectrogram(nn.Module):
    def __init__(self, n_fft=1024, hop_length=None, n_mels=128):
        super().__init__()
        self.spectrogram = Spectrogram(n_fft=n_fft, hop_length=hop_length)
        self.mel_scale = MelScale(n_mels, n_fft // 2 + 1)

    def forward(self, waveform):
        return self.mel_scale(self.spectrogram(waveform))

TARGET_FREQUENCY = 440
NUMBER_OF_FFT_SLOTS = 1024
NUMBER_OF_MEL_SLOTS = 128
target_device = torch.device("cuda:0")
sampling_vec = np.arange(16000) / 16000
frequency_vec = np.sin(2 * np.pi * TARGET_FREQUENCY * sampling_vec).astype("float32")
frequency_tensor = torch.Tensor(frequency_vec).to(target_device)
transform = MelSpectrogram(n_fft=NUMBER_OF_FFT_SLOTS, hop_length=None, n_mels=NUMBER_OF_MEL_SLOTS)
'''
CELL = '''
mel_spectrogram = transform(frequency_tensor)
'''
EXPECT_ERROR = ("stft input and window must be on the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["transform"]
FIX = "namespace"
REFERENCE_FIX = '''
transform = transform.to(target_device)
'''
REFERENCE_EDIT = None
CLEAN = False
