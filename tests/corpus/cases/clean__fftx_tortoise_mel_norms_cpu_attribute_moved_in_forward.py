"""Look-alike: tortoise-tts' `TorchMelSpectrogram` keeps its MelSpectrogram and `mel_norms` on the CPU and moves them in `forward`.

Source: https://github.com/neonbjb/tortoise-tts/blob/main/tortoise/models/arch_util.py
`TorchMelSpectrogram.__init__` builds a torchaudio `MelSpectrogram` and loads `mel_norms` from
mel_norms.pth as a plain tensor attribute (not a buffer), both on the CPU; `forward` does
`self.mel_stft = self.mel_stft.to(inp.device)` and `self.mel_norms = self.mel_norms.to(mel.device)`
before using them, so a GPU clip works although the object's tensors sit on the CPU beforehand.
Stand-in: torchaudio's MelSpectrogram as Spectrogram + MelScale buffers (random filterbank), the
norms file as a fixed tensor.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class MelSpectrogram(nn.Module):
    """torchaudio.transforms.MelSpectrogram stand-in (window and filterbank are buffers)."""
    def __init__(self, n_fft=1024, hop_length=256, win_length=1024, n_mels=80, **kwargs):
        super().__init__()
        self.n_fft, self.hop_length, self.win_length = n_fft, hop_length, win_length
        self.register_buffer("window", torch.hann_window(win_length))
        self.register_buffer("fb", torch.rand(n_fft // 2 + 1, n_mels))

    def forward(self, waveform):
        spec = torch.stft(waveform, self.n_fft, self.hop_length, self.win_length, window=self.window,
                          return_complex=True).abs().pow(2)
        return torch.matmul(spec.transpose(-1, -2), self.fb).transpose(-1, -2)

class TorchMelSpectrogram(nn.Module):
    def __init__(self, filter_length=1024, hop_length=256, win_length=1024, n_mel_channels=80,
                 mel_fmin=0, mel_fmax=8000, sampling_rate=22050, normalize=False, mel_norm_file="mel_norms.pth"):
        super().__init__()
        self.filter_length = filter_length
        self.hop_length = hop_length
        self.win_length = win_length
        self.n_mel_channels = n_mel_channels
        self.mel_stft = MelSpectrogram(n_fft=self.filter_length, hop_length=self.hop_length,
                                       win_length=self.win_length, n_mels=self.n_mel_channels)
        self.mel_norm_file = mel_norm_file
        if self.mel_norm_file is not None:
            self.mel_norms = torch.linspace(0.5, 2.0, n_mel_channels)      # torch.load(self.mel_norm_file)
        else:
            self.mel_norms = None

    def forward(self, inp):
        if len(inp.shape) == 3:
            inp = inp.squeeze(1)
        assert len(inp.shape) == 2
        self.mel_stft = self.mel_stft.to(inp.device)
        mel = self.mel_stft(inp)
        mel = torch.log(torch.clamp(mel, min=1e-5))
        if self.mel_norms is not None:
            self.mel_norms = self.mel_norms.to(mel.device)
            mel = mel / self.mel_norms.unsqueeze(0).unsqueeze(-1)
        return mel

device = torch.device("cuda:0")
mel_fn = TorchMelSpectrogram()
clip = torch.randn(1, 1, 22050, device=device)           # a conditioning clip already on the GPU
'''
CELL = '''
cond_mel = mel_fn(clip)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
