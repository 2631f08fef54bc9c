"""StyleTTS2 inference: the reference-audio `to_mel` transform stays on the CPU and only its output is moved to the GPU.

Source: https://github.com/yl4579/StyleTTS2 (Demo/Inference_LibriTTS.ipynb: `to_mel`, `preprocess`, `compute_style`)
The demo builds `to_mel = torchaudio.transforms.MelSpectrogram(...)` at module level and never moves
it; `preprocess(wave)` runs it on a CPU tensor made from the numpy wave, and `compute_style` sends the
normalised mel to the model with `preprocess(audio).to(device)` before `model.style_encoder` and
`model.predictor_encoder` (both on cuda). Look-alike: a feature module with buffers left on the
CPU next to a cuda model, on purpose, and the cell runs.
Stand-ins: a MelSpectrogram with `window`/`fb` buffers (torchaudio is not installed) and two small
style encoders; the librosa load/trim is replaced by a numpy wave.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn

class MelSpectrogram(nn.Module):
    def __init__(self, n_mels=8, n_fft=32, win_length=32, hop_length=16):
        super().__init__()
        self.n_fft, self.hop_length = n_fft, hop_length
        self.register_buffer("window", torch.hann_window(win_length))
        self.register_buffer("fb", torch.rand(n_fft // 2 + 1, n_mels))

    def forward(self, wave):
        frames = wave.unfold(-1, self.n_fft, self.hop_length) * self.window
        spec = torch.fft.rfft(frames).abs() ** 2
        return torch.matmul(spec, self.fb).transpose(-1, -2)

class StyleEncoder(nn.Module):
    def __init__(self, n_mels=8, style_dim=4):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.out = nn.Linear(4, style_dim)

    def forward(self, x):
        return self.out(self.conv(x).mean((2, 3)))

device = "cuda:0"
model = SimpleNamespace(style_encoder=StyleEncoder().to(device), predictor_encoder=StyleEncoder().to(device))

to_mel = MelSpectrogram(n_mels=8, n_fft=32, win_length=32, hop_length=16)
mean, std = -4, 4

def preprocess(wave):
    wave_tensor = torch.from_numpy(wave).float()
    mel_tensor = to_mel(wave_tensor)
    mel_tensor = (torch.log(1e-5 + mel_tensor.unsqueeze(0)) - mean) / std
    return mel_tensor

def compute_style(audio):
    mel_tensor = preprocess(audio).to(device)
    with torch.no_grad():
        ref_s = model.style_encoder(mel_tensor.unsqueeze(1))
        ref_p = model.predictor_encoder(mel_tensor.unsqueeze(1))
    return torch.cat([ref_s, ref_p], dim=1)

audio = np.random.randn(400).astype(np.float32)      # librosa.load(path, sr=24000) + trim
'''
CELL = '''
ref_s = compute_style(audio)
print(ref_s.shape, ref_s.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
