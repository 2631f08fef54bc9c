"""ChatTTS speaker/reference audio: the mel extractor is on the GPU, the loaded waveform on the CPU.

Source: https://github.com/2noise/ChatTTS/issues/741
Encoding a reference audio sample raised "stft input and window must be on the same device but got
self on cpu and window on cuda" inside torchaudio's MelSpectrogram: the feature module had been
moved with the model to cuda (its Hann window is a buffer), the waveform loaded from file stayed
on the CPU. The fix is to move the waveform to the model's device before extracting features.
Stand-in: a MelSpectrogram-like module (window, a real DFT basis and mel filterbank as buffers);
framing + matmul replaces `torch.stft`, which the CPU simulation cannot run on a fake GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

class MelSpectrogramFeatures(nn.Module):
    def __init__(self, n_fft=1024, hop_length=256, n_mels=100):
        super().__init__()
        self.n_fft, self.hop_length = n_fft, hop_length
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("dft_basis", torch.randn(n_fft, n_fft // 2 + 1))
        self.register_buffer("fb", torch.rand(n_fft // 2 + 1, n_mels))

    def forward(self, audio):
        frames = audio.unfold(-1, self.n_fft, self.hop_length) * self.window
        power = torch.matmul(frames, self.dft_basis).pow(2)
        mel = torch.matmul(power, self.fb)
        return torch.log(torch.clamp(mel, min=1e-5)).transpose(-1, -2)

device = torch.device("cuda:0")
dvae_encoder = nn.Sequential(nn.Linear(100, 64), nn.GELU(), nn.Linear(64, 32)).to(device)
mel_spec = MelSpectrogramFeatures().to(device)
wav = torch.from_numpy(np.random.randn(1, 24000).astype(np.float32))
'''
CELL = '''
with torch.no_grad():
    mel = mel_spec(wav)
    spk_code = dvae_encoder(mel.transpose(-1, -2))
'''
EXPECT_ERROR = ("stft input and window must be on the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["wav"]
FIX = "namespace"
REFERENCE_FIX = '''
wav = wav.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
