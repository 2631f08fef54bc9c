"""Look-alike: audiocraft `MusicGen.generate_with_chroma` with a CUDA model and a CPU melody: the melody is moved when the conditions are built.

Source: https://github.com/facebookresearch/audiocraft/blob/main/audiocraft/models/musicgen.py (`_prepare_tokens_and_attributes`)
The README's melody example loads the reference tune with `torchaudio.load` (CPU) and passes it to
`model.generate_with_chroma(descriptions, melody[None].expand(3, -1, -1), sr)` on a model that lives on
CUDA. `generate_with_chroma` only resamples/remixes the melody (`convert_audio`, CPU), and
`_prepare_tokens_and_attributes` wraps each one as `WavCondition(melody[None].to(device=self.device),
torch.tensor([melody.shape[-1]], device=self.device), ...)`. Stand-ins: a chroma conditioner with an
STFT window buffer, a tiny LM and decoder; `convert_audio` averages channels only.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import typing as tp
from dataclasses import dataclass, field
import torch
from torch import nn

class WavCondition(tp.NamedTuple):
    wav: torch.Tensor
    length: torch.Tensor
    sample_rate: tp.List[int]
    path: tp.List[tp.Optional[str]] = []

@dataclass
class ConditioningAttributes:
    text: tp.Dict[str, tp.Optional[str]] = field(default_factory=dict)
    wav: tp.Dict[str, WavCondition] = field(default_factory=dict)

def convert_audio(wav, from_rate, to_rate, to_channels):
    """audiocraft.data.audio_utils.convert_audio (stand-in: channel mix only, same rate)."""
    return wav.mean(dim=-2, keepdim=True) if to_channels == 1 else wav

class ChromaStemConditioner(nn.Module):
    """Chroma from the melody (stand-in): |STFT| with a window buffer -> 12 bins."""
    def __init__(self, n_fft=256, dim=16):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft))
        self.chroma = nn.Linear(n_fft // 2 + 1, 12)
        self.output_proj = nn.Linear(12, dim)
    def forward(self, cond):
        wav = cond.wav.reshape(-1, cond.wav.shape[-1])
        spec = torch.stft(wav, self.n_fft, hop_length=self.n_fft // 4, window=self.window,
                          return_complex=True).abs()
        chroma = torch.softmax(self.chroma(spec.transpose(-1, -2)), dim=-1)
        return self.output_proj(chroma)

class LMModel(nn.Module):
    def __init__(self, dim=16, card=32):
        super().__init__()
        self.self_wav = ChromaStemConditioner(dim=dim)
        self.emb = nn.Embedding(card, dim)
        self.out = nn.Linear(dim, card)
    def generate(self, attributes, gen_len=8):
        cond = torch.cat([self.self_wav(a.wav["self_wav"]) for a in attributes], dim=0)
        h = cond.mean(dim=1, keepdim=True).expand(-1, gen_len, -1)
        return self.out(h).argmax(-1)

class MusicGen:
    def __init__(self, lm, sample_rate=16000, audio_channels=1):
        self.lm = lm
        self.device = next(iter(lm.parameters())).device
        self.sample_rate, self.audio_channels = sample_rate, audio_channels
        self.decoder = nn.Embedding(32, 160).to(self.device)      # compression model (stand-in)

    def _prepare_tokens_and_attributes(self, descriptions, prompt, melody_wavs=None):
        attributes = [ConditioningAttributes(text={"description": description})
                      for description in descriptions]
        for attr, melody in zip(attributes, melody_wavs):
            if melody is None:
                attr.wav["self_wav"] = WavCondition(
                    torch.zeros((1, 1, 1), device=self.device),
                    torch.tensor([0], device=self.device),
                    sample_rate=[self.sample_rate], path=[None])
            else:
                attr.wav["self_wav"] = WavCondition(
                    melody[None].to(device=self.device),
                    torch.tensor([melody.shape[-1]], device=self.device),
                    sample_rate=[self.sample_rate], path=[None])
        return attributes, None

    def generate_with_chroma(self, descriptions, melody_wavs, melody_sample_rate, progress=False):
        if isinstance(melody_wavs, torch.Tensor):
            if melody_wavs.dim() == 2:
                melody_wavs = melody_wavs[None]
            melody_wavs = list(melody_wavs)
        melody_wavs = [convert_audio(wav, melody_sample_rate, self.sample_rate, self.audio_channels)
                       if wav is not None else None for wav in melody_wavs]
        attributes, prompt_tokens = self._prepare_tokens_and_attributes(
            descriptions=descriptions, prompt=None, melody_wavs=melody_wavs)
        with torch.no_grad():
            tokens = self.lm.generate(attributes)
            return self.decoder(tokens).reshape(len(descriptions), 1, -1)

model = MusicGen(LMModel().to("cuda:0"))                     # MusicGen.get_pretrained('melody')
melody = torch.randn(2, 16000)                               # torchaudio.load('bach.mp3'), CPU
sr = 16000
descriptions = ["happy rock", "energetic EDM", "sad jazz"]
'''
CELL = '''
wav = model.generate_with_chroma(descriptions, melody[None].expand(3, -1, -1), sr)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
