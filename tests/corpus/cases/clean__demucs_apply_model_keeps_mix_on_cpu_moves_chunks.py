"""Look-alike: demucs `apply_model` keeps the whole mix on the CPU and moves each chunk to the model's device.

Source: https://github.com/adefossez/demucs/pull/6
A PR proposed moving the audio to the GPU in `Separator.separate_audio_file` after a reported
"Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)"; the maintainer declined:
storing the whole track in VRAM risks OOM, and `apply_model` already moves every chunk to the target
device before separating and brings the result back. A CUDA model next to a CPU waveform is the
intended layout. Stand-in: apply_model's split/overlap loop around a small conv separator.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class HTDemucs(nn.Module):
    def __init__(self, sources=("drums", "bass", "other", "vocals"), audio_channels=2, hidden=32):
        super().__init__()
        self.sources = sources
        self.encoder = nn.Conv1d(audio_channels, hidden, 8, stride=4, padding=2)
        self.decoder = nn.ConvTranspose1d(hidden, audio_channels * len(sources), 8, stride=4, padding=2)

    def forward(self, mix):
        z = torch.relu(self.encoder(mix))
        out = self.decoder(z)
        return out.view(mix.shape[0], len(self.sources), mix.shape[1], -1)

def apply_model(model, mix, segment_length=44100, device=None):
    device = device or next(model.parameters()).device
    batch, channels, length = mix.shape
    out = torch.zeros(batch, len(model.sources), channels, length, device=mix.device)
    offset = 0
    while offset < length:
        chunk = mix[..., offset:offset + segment_length]
        with torch.no_grad():
            chunk_out = model(chunk.to(device))
        out[..., offset:offset + segment_length] += chunk_out.to(mix.device)
        offset += segment_length
    return out

model = HTDemucs().to("cuda:0")                 # Separator(model="htdemucs", device="cuda")
wav = torch.randn(2, 44100 * 3)                 # decoded track, kept on the CPU
ref = wav.mean(0)
wav = (wav - ref.mean()) / ref.std()
'''
CELL = '''
sources = apply_model(model, wav[None], segment_length=44100)
sources = sources * ref.std() + ref.mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
