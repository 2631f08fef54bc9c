"""ComfyUI audio-separation node: a float64 waveform from a reverb node reaches the float32 Hybrid Demucs.

Source: https://github.com/christian-byrne/audio-separation-nodes-comfyui/issues/22
"Input type (double) and bias type (float) should be the same": adding reverb with signal-processing
nodes before the Audio Separation node hands it a float64 `audio["waveform"]`; `AudioSeparation.main`
moves it, normalises it and runs HDEMUCS_HIGH_MUSDB_PLUS (float32 weights) on it. A commenter cast the
waveform (`resample(waveform.float())`), and the maintainer's fix (PR #31) adds
`waveform = waveform.float()` after `ensure_stereo()` in `main`. Stand-ins: a tiny conv "HDemucs" for
the torchaudio bundle, `Fade`, and the node's `main`/`separate_sources` (after the hybrid demucs
tutorial); `comfy.model_management` is a stub; the sample rates match, so no resampling.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class _ModelManagement:                       # comfy.model_management (stub)
    @staticmethod
    def get_torch_device():
        return torch.device("cpu")
model_management = _ModelManagement()

class HDemucs(nn.Module):
    """torchaudio HDEMUCS_HIGH_MUSDB_PLUS model (stand-in): float32 convs with biases."""
    sources = ["drums", "bass", "other", "vocals"]
    def __init__(self, audio_channels=2, hidden=16):
        super().__init__()
        self.encoder = nn.Conv1d(audio_channels, hidden, 8, stride=4, padding=2)
        self.decoder = nn.ConvTranspose1d(hidden, audio_channels * len(self.sources), 8, stride=4, padding=2)
    def forward(self, mix):
        out = self.decoder(torch.relu(self.encoder(mix)))
        return out.view(mix.shape[0], len(self.sources), mix.shape[1], -1)

class Fade(nn.Module):
    """torchaudio.transforms.Fade (linear shape only)."""
    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape="linear"):
        super().__init__()
        self.fade_in_len, self.fade_out_len = fade_in_len, fade_out_len
    def forward(self, waveform):
        length = waveform.size()[-1]
        fade_in = torch.ones(length, device=waveform.device)
        fade_out = torch.ones(length, device=waveform.device)
        if self.fade_in_len:
            fade_in[:self.fade_in_len] = torch.linspace(0, 1, self.fade_in_len, device=waveform.device)
        if self.fade_out_len:
            fade_out[length - self.fade_out_len:] = torch.linspace(1, 0, self.fade_out_len, device=waveform.device)
        return fade_in * fade_out * waveform

def ensure_stereo(waveform):
    if waveform.shape[0] == 1:
        waveform = waveform.repeat(2, 1)
    return waveform

class AudioSeparation:
    """src/separation.py (reduced): the node's main and separate_sources."""
    def main(self, audio, chunk_fade_shape="linear", chunk_length=10.0, chunk_overlap=0.1):
        device = model_management.get_torch_device()
        waveform = audio["waveform"]
        waveform = waveform.squeeze(0).to(device)
        self.input_sample_rate_ = audio["sample_rate"]
        model = HDemucs().to(device)
        self.model_sample_rate = 4000
        waveform = ensure_stereo(waveform)
        ref = waveform.mean(0)
        waveform = (waveform - ref.mean()) / ref.std()
        sources = self.separate_sources(model, waveform[None], self.model_sample_rate,
                                        segment=chunk_length, overlap=chunk_overlap, device=device)[0]
        sources = sources * ref.std() + ref.mean()
        return dict(zip(model.sources, list(sources)))

    def separate_sources(self, model, mix, sample_rate, segment=10.0, overlap=0.1, device=None):
        batch, channels, length = mix.shape
        chunk_len = int(sample_rate * segment * (1 + overlap))
        start, end = 0, chunk_len
        overlap_frames = overlap * sample_rate
        fade = Fade(fade_in_len=0, fade_out_len=int(overlap_frames))
        final = torch.zeros(batch, len(model.sources), channels, length, device=device)
        while start < length - overlap_frames:
            chunk = mix[:, :, start:end]
            with torch.no_grad():
                out = model.forward(chunk)
            out = fade(out)
            final[:, :, :, start:end] += out
            if start == 0:
                fade.fade_in_len = int(overlap_frames)
                start += int(chunk_len - overlap_frames)
            else:
                start += chunk_len
            end += chunk_len
            if end >= length:
                fade.fade_out_len = 0
        return final

# AUDIO from the reverb node: float64 samples
audio = {"waveform": torch.randn(1, 2, 4000 * 12, dtype=torch.float64) * 0.1, "sample_rate": 4000}
node = AudioSeparation()
'''
CELL = '''
stems = node.main(audio, chunk_length=10.0, chunk_overlap=0.1)
'''
EXPECT_ERROR = ("Input type (double) and bias type (float)", "should be the same")
CULPRITS = ["node"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        waveform = ensure_stereo(waveform)\n",
    "        waveform = ensure_stereo(waveform)\n        waveform = waveform.float()\n",
)
CLEAN = False
