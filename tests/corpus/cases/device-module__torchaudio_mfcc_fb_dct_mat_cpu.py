"""torchaudio MFCC on GPU audio: the window was made on the GPU, the mel filterbank and DCT matrix stayed on the CPU.

Source: https://github.com/pytorch/audio/issues/3765
The user built `MFCC(melkwargs={"wkwargs": {"device": device}})` so that the STFT window is on
the GPU, then called it on a cuda tensor; it failed in the matrix products because the
transform's own buffers `MelSpectrogram.mel_scale.fb` and `dct_mat` were still on the CPU (the
user's workaround moved exactly those two). The transform is an nn.Module: `mfcc.to(device)`
moves every buffer. Stand-in: MFCC -> MelSpectrogram -> (Spectrogram, MelScale) with the same
registered buffers.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Spectrogram(nn.Module):
    def __init__(self, n_fft=64, wkwargs=None):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft, **(wkwargs or {})))

    def forward(self, waveform):
        spec = torch.stft(waveform, self.n_fft, hop_length=self.n_fft // 2,
                          window=self.window, return_complex=True)
        return spec.abs().pow(2.0)

class MelScale(nn.Module):
    def __init__(self, n_mels=16, n_stft=33):
        super().__init__()
        self.register_buffer("fb", torch.rand(n_stft, n_mels))

    def forward(self, specgram):
        return torch.matmul(specgram.transpose(-1, -2), self.fb).transpose(-1, -2)

class MelSpectrogram(nn.Module):
    def __init__(self, n_fft=64, n_mels=16, wkwargs=None):
        super().__init__()
        self.spectrogram = Spectrogram(n_fft, wkwargs)
        self.mel_scale = MelScale(n_mels, n_fft // 2 + 1)

    def forward(self, waveform):
        return self.mel_scale(self.spectrogram(waveform))

class MFCC(nn.Module):
    def __init__(self, n_mfcc=13, n_mels=16, melkwargs=None):
        super().__init__()
        self.MelSpectrogram = MelSpectrogram(n_mels=n_mels, **(melkwargs or {}))
        self.register_buffer("dct_mat", torch.rand(n_mels, n_mfcc))

    def forward(self, waveform):
        mel = torch.log(self.MelSpectrogram(waveform) + 1e-6)
        return torch.matmul(mel.transpose(-1, -2), self.dct_mat).transpose(-1, -2)

device = torch.device("cuda:0")
mfcc = MFCC(melkwargs={"wkwargs": {"device": device}})
data = torch.rand([4, 400]).to(device)
'''
CELL = '''
features = mfcc(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mfcc.MelSpectrogram.mel_scale.fb", "mfcc.dct_mat"]
FIX = "namespace"
REFERENCE_FIX = '''
mfcc = mfcc.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
