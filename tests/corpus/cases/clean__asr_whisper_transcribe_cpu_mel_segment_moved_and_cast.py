"""openai-whisper `transcribe`: the log-mel of the whole file stays on the CPU in float32; each 30 s segment is moved and cast.

Source: https://github.com/openai/whisper/blob/main/whisper/transcribe.py
`transcribe()` computes `mel = log_mel_spectrogram(audio, model.dims.n_mels, padding=N_SAMPLES)`
without a device, so the full spectrogram stays on the CPU, while the model sits on the GPU in
fp16; every window is sliced as `mel[:, seek : seek + segment_size]` and sent to the encoder as
`pad_or_trim(mel_segment, N_FRAMES).to(model.device).to(dtype)`. Look-alike: a CPU float32 `mel`
next to a cuda fp16 model, used together in one cell. Stand-ins: `pad_or_trim` (current version),
a reduced `AudioEncoder` (two convs, sinusoid positional buffer, LayerNorm) inside a `Whisper`
module with its `device` property; a random mel instead of `log_mel_spectrogram`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

N_FRAMES = 3000

def pad_or_trim(array, length: int = N_FRAMES, *, axis: int = -1):
    if torch.is_tensor(array):
        if array.shape[axis] > length:
            array = array.index_select(dim=axis, index=torch.arange(length, device=array.device))
        if array.shape[axis] < length:
            pad_widths = [(0, 0)] * array.ndim
            pad_widths[axis] = (0, length - array.shape[axis])
            array = F.pad(array, [pad for sizes in pad_widths[::-1] for pad in sizes])
    return array

def sinusoids(length, channels, max_timescale=10000):
    log_timescale_increment = np.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
    scaled_time = torch.arange(length)[:, np.newaxis] * inv_timescales[np.newaxis, :]
    return torch.cat([torch.sin(scaled_time), torch.cos(scaled_time)], dim=1)

class AudioEncoder(nn.Module):
    """stand-in of whisper.model.AudioEncoder (no attention blocks)"""
    def __init__(self, n_mels, n_ctx, n_state):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, n_state, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(n_state, n_state, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", sinusoids(n_ctx, n_state))
        self.ln_post = nn.LayerNorm(n_state)

    def forward(self, x):
        x = F.gelu(self.conv1(x))
        x = F.gelu(self.conv2(x))
        x = x.permute(0, 2, 1)
        x = (x + self.positional_embedding).to(x.dtype)
        return self.ln_post(x)

class Whisper(nn.Module):
    def __init__(self, n_mels=80, n_audio_ctx=1500, n_audio_state=64):
        super().__init__()
        self.encoder = AudioEncoder(n_mels, n_audio_ctx, n_audio_state)

    @property
    def device(self):
        return next(self.parameters()).device

model = Whisper().half().to("cuda:0")     # load_model(..., device="cuda"); fp16 inference
dtype = torch.float16
mel = torch.randn(80, 3 * N_FRAMES)       # log_mel_spectrogram(audio, padding=N_SAMPLES): CPU, float32
seek = 0
'''
CELL = '''
segment_size = min(N_FRAMES, mel.shape[-1] - seek)
mel_segment = mel[:, seek : seek + segment_size]
mel_segment = pad_or_trim(mel_segment, N_FRAMES).to(model.device).to(dtype)
with torch.no_grad():
    audio_features = model.encoder(mel_segment.unsqueeze(0))
seek += segment_size
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
