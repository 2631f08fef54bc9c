"""Look-alike: avex EfficientNet given float64 audio: `process_audio` casts to float32 before the mel filterbank.

Source: https://github.com/earthspecies/avex/pull/147
"EfficientNet fails with dtype mismatch when audio input is float64. The `mel_basis` (MelScale) is
float32, but float64 input produces float64 spectrogram, causing: expected m1 and m2 to have the
same dtype" (#145). The PR makes `EfficientNet.process_audio()` convert the waveform to float32
first, so a float64 batch (numpy/soundfile's default) next to the float32 model and mel buffers is
fine. ModelBase's STFT/mel front end and the EfficientNet are small stand-ins. Run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ModelBase(nn.Module):
    def __init__(self, sample_rate=16000, n_fft=256, n_mels=32):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("mel_basis", torch.rand(n_mels, n_fft // 2 + 1))

    def process_audio(self, x: torch.Tensor) -> torch.Tensor:
        spec = torch.stft(x, self.n_fft, self.n_fft // 4, window=self.window, return_complex=True).abs() ** 2
        return torch.log(self.mel_basis @ spec + 1e-6)            # (batch, n_mels, frames)

class EfficientNet(ModelBase):
    def __init__(self, num_classes=10):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.SiLU(),
                                   nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, num_classes))

    def process_audio(self, x: torch.Tensor) -> torch.Tensor:
        if x.dtype != torch.float32:
            x = x.float()                                         # auto-convert (PR #147)
        x = super().process_audio(x)
        if x.dim() == 3:
            x = x.unsqueeze(1)
            x = x.repeat(1, 3, 1, 1)
        return x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(self.process_audio(x))

model = EfficientNet().eval()
audio = torch.from_numpy(np.random.default_rng(0).standard_normal((2, 16000)))   # float64, as loaded
'''
CELL = '''
with torch.no_grad():
    logits = model(audio)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
