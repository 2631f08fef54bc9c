"""Speaker-ID front end on the GPU: `torch.stft(..., window=torch.hann_window(n))` made inside forward.

Source: https://github.com/usc-sail/gard-adversarial-speaker-id/issues/2
After upgrading to PyTorch 1.9 training failed with "stft input and window must be on the same
device but got self on cuda:0 and window on cpu": the preprocessing module's `forward` passes
`window=torch.hann_window(hp.win_length)`, created on the CPU every call, while the waveform batch
is on cuda. Stand-in: the same preprocessing module in front of a small encoder.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class hp:
    n_fft, hop_length, win_length, n_mels = 512, 160, 400, 40

class Preprocessor(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mel_basis", torch.rand(hp.n_mels, hp.n_fft // 2 + 1))

    def forward(self, x):
        spec = torch.stft(x, n_fft=hp.n_fft, hop_length=hp.hop_length, win_length=hp.win_length,
                          window=torch.hann_window(hp.win_length), return_complex=True)
        return torch.log(self.mel_basis @ spec.abs() ** 2 + 1e-6)

class SpeakerNet(nn.Module):
    def __init__(self, n_speakers=10):
        super().__init__()
        self.prep = Preprocessor()
        self.encoder = nn.Sequential(nn.Conv1d(hp.n_mels, 64, 3, padding=1), nn.ReLU(),
                                     nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(64, n_speakers))

    def encode(self, x):
        return self.encoder(self.prep(x.squeeze(1)))

device = torch.device("cuda:0")
model = SpeakerNet().to(device)
inputs = torch.randn(4, 1, 16000).to(device)
'''
CELL = '''
real_feature = model.encode(inputs)
'''
EXPECT_ERROR = ("stft input and window must be on the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["model.prep"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("window=torch.hann_window(hp.win_length)",
                  "window=torch.hann_window(hp.win_length, device=x.device)")
CLEAN = False
