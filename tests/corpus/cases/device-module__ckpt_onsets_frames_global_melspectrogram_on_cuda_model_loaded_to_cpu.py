"""onsets-and-frames: transcribing on the CPU with a model loaded there, but the module-level mel spectrogram was built on the GPU at import.

Source: https://github.com/jongwook/onsets-and-frames/issues/21
With `DEFAULT_DEVICE='cpu'` chosen for transcription, `mel = melspectrogram(audio.reshape(-1,
audio.shape[-1])[:, :-1]).transpose(-1, -2)` failed inside the STFT's conv1d with "Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same". The maintainer
pointed at device mapping when loading. `onsets_and_frames/mel.py` creates the global
`melspectrogram = MelSpectrogram(...).to(DEFAULT_DEVICE)` when it is imported, with the package's
own default ('cuda' when available), so the STFT basis buffer sits on the GPU while the loaded model
and the audio are on the CPU. Stand-in: the STFT/mel modules reduced to the conv1d basis.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

# onsets_and_frames/constants.py
DEFAULT_DEVICE = "cuda:0"          # 'cuda' if torch.cuda.is_available() else 'cpu'
SAMPLE_RATE, HOP_LENGTH, WINDOW_LENGTH, N_MELS = 16000, 512, 2048, 229

# onsets_and_frames/mel.py
class STFT(nn.Module):
    def __init__(self, filter_length, hop_length):
        super().__init__()
        self.filter_length, self.hop_length = filter_length, hop_length
        cutoff = filter_length // 2 + 1
        t = torch.arange(filter_length, dtype=torch.float32)
        k = torch.arange(cutoff, dtype=torch.float32)[:, None]
        window = torch.hann_window(filter_length)
        basis = torch.cat([torch.cos(2 * torch.pi * k * t / filter_length),
                           -torch.sin(2 * torch.pi * k * t / filter_length)]) * window
        self.register_buffer("forward_basis", basis[:, None, :])

    def forward(self, input_data):
        input_data = F.pad(input_data.unsqueeze(1), (self.filter_length // 2, self.filter_length // 2), mode="reflect")
        forward_transform = F.conv1d(input_data, self.forward_basis, stride=self.hop_length, padding=0)
        cutoff = self.filter_length // 2 + 1
        real_part, imag_part = forward_transform[:, :cutoff], forward_transform[:, cutoff:]
        return torch.sqrt(real_part ** 2 + imag_part ** 2)

class MelSpectrogram(nn.Module):
    def __init__(self, n_mels, sample_rate, filter_length, hop_length):
        super().__init__()
        self.stft = STFT(filter_length, hop_length)
        self.register_buffer("mel_basis", torch.rand(n_mels, filter_length // 2 + 1))

    def forward(self, y):
        magnitudes = self.stft(y)
        return torch.log(torch.clamp(torch.matmul(self.mel_basis, magnitudes), min=1e-5))

melspectrogram = MelSpectrogram(N_MELS, SAMPLE_RATE, WINDOW_LENGTH, HOP_LENGTH).to(DEFAULT_DEVICE)

class OnsetsAndFrames(nn.Module):
    def __init__(self, input_features=N_MELS, output_features=88):
        super().__init__()
        self.onset_stack = nn.Sequential(nn.Linear(input_features, 64), nn.ReLU(), nn.Linear(64, output_features))
        self.frame_stack = nn.Sequential(nn.Linear(input_features, 64), nn.ReLU(), nn.Linear(64, output_features))

    def forward(self, mel):
        return self.onset_stack(mel).sigmoid(), self.frame_stack(mel).sigmoid()

# export.py / transcribe.py
device = "cpu"
model = OnsetsAndFrames()                 # torch.load(model_file, map_location=device)
model = model.to(device).eval()
audio = torch.randn(SAMPLE_RATE * 2)      # load_and_process_audio(flac_path, sequence_length, device)
'''
CELL = '''
mel = melspectrogram(audio.reshape(-1, audio.shape[-1])[:, :-1]).transpose(-1, -2)
onset_pred, frame_pred = model(mel)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["melspectrogram"]
FIX = "namespace"
REFERENCE_FIX = '''
melspectrogram = melspectrogram.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
