"""Look-alike: MusicGen's gradio app turns the `gr.Audio` melody (sample rate, int16 ndarray) into a float tensor on the model's GPU, then resamples it with a kernel julius builds on the CPU and moves with `.to(x)`.

Source: https://github.com/facebookresearch/audiocraft/blob/896ec7c47f5e5d1e5aa1e4b260c4405328bf009d/demos/musicgen_app.py
`_do_predictions`: `sr, melody = melody[0], torch.from_numpy(melody[1]).to(MODEL.device).float().t()`, `melody =
melody[None]` when mono, `melody = melody[..., :int(sr * duration)]`, `melody = convert_audio(melody, sr,
target_sr, target_ac)`, then `MODEL.generate_with_chroma(descriptions=texts, melody_wavs=processed_melodies,
melody_sample_rate=target_sr, ...)`. `audiocraft.data.audio_utils.convert_audio` downmixes and calls
`julius.resample_frac`, which does `ResampleFrac(old_sr, new_sr, ...).to(x)(x)`: the sinc kernel is a buffer
made on the CPU and follows the waveform. The chroma conditioner's filterbank is a buffer of a module moved with
the model. int16 numpy in, CPU-built kernel, GPU model: nothing to report. Stand-ins: julius' ResampleFrac and
audiocraft's ChromaExtractor reduced (a small windowed-sinc kernel; an STFT-free band-energy chroma), MusicGen
reduced to the chroma conditioner and one LM step.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class ResampleFrac(nn.Module):
    """julius.resample.ResampleFrac, reduced: the kernel is a buffer built at init (on the CPU)."""
    def __init__(self, old_sr, new_sr, zeros=4):
        super().__init__()
        gcd = math.gcd(old_sr, new_sr)
        self.old_sr, self.new_sr = old_sr // gcd, new_sr // gcd
        self._width = math.ceil(zeros * self.old_sr / min(self.old_sr, self.new_sr))
        idx = torch.arange(-self._width, self._width + self.old_sr).float()
        kernels = []
        for i in range(self.new_sr):
            t = (-i / self.new_sr + idx / self.old_sr) * math.pi
            t = t.clamp(-zeros * math.pi, zeros * math.pi)
            window = torch.cos(t / zeros / 2) ** 2
            kernel = torch.where(t == 0, torch.tensor(1.), t.sin() / t) * window
            kernels.append(kernel / kernel.sum())
        self.register_buffer("kernel", torch.stack(kernels).view(self.new_sr, 1, -1))

    def forward(self, x):
        shape = x.shape
        length = x.shape[-1]
        x = x.reshape(-1, length)
        x = F.pad(x[:, None], (self._width, self._width + self.old_sr), mode='replicate')
        ys = F.conv1d(x, self.kernel, stride=self.old_sr)
        y = ys.transpose(1, 2).reshape(list(shape[:-1]) + [-1])
        return y[..., :int(self.new_sr * length / self.old_sr)]

def resample_frac(x, old_sr, new_sr, zeros=4):
    return ResampleFrac(old_sr, new_sr, zeros).to(x)(x)

def convert_audio_channels(wav, channels=2):
    *shape, src_channels, length = wav.shape
    if src_channels == channels:
        pass
    elif channels == 1:
        wav = wav.mean(dim=-2, keepdim=True)
    return wav

def convert_audio(wav, from_rate, to_rate, to_channels):
    wav = resample_frac(wav, int(from_rate), int(to_rate))
    wav = convert_audio_channels(wav, to_channels)
    return wav

class ChromaExtractor(nn.Module):
    """audiocraft.modules.chroma.ChromaExtractor, reduced: a fixed filterbank buffer over framed audio."""
    def __init__(self, n_fft=64, n_chroma=12):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("fbanks", torch.rand(n_chroma, n_fft))
    def forward(self, wav):
        frames = wav.unfold(-1, self.n_fft, self.n_fft // 2)         # B, C, T, n_fft
        spec = frames.pow(2).mean(1)                                   # B, T, n_fft
        return F.normalize(torch.einsum("cf,btf->btc", self.fbanks, spec), p=2, dim=-1)

class MusicGen(nn.Module):
    def __init__(self):
        super().__init__()
        self.chroma = ChromaExtractor()
        self.condition_proj = nn.Linear(12, 32)
        self.text_emb = nn.Embedding(100, 32)
        self.lm_head = nn.Linear(32, 2048)
        self.duration = 10
    @property
    def device(self):
        return next(self.parameters()).device
    def set_generation_params(self, duration=10, **kwargs):
        self.duration = duration
    def generate_with_chroma(self, descriptions, melody_wavs, melody_sample_rate, progress=False, return_tokens=False):
        ids = torch.tensor([[hash(w) % 100 for w in d.split()][:8] for d in descriptions], device=self.device)
        wavs = torch.stack([w[..., :8000] for w in melody_wavs])        # B, 1, T
        cond = self.condition_proj(self.chroma(wavs))                  # B, frames, 32
        h = torch.cat([self.text_emb(ids), cond], dim=1)
        return self.lm_head(h[:, -1]).argmax(-1)

MODEL = MusicGen().to("cuda:0")
USE_DIFFUSION = False
duration = 2
texts = ["An 80s driving pop song with heavy drums and synth pads in the background"]
# gr.Audio(type="numpy") returns (sample_rate, int16 array of shape (samples, channels))
melodies = [(16000, (np.random.randn(16000 * 3, 2) * 3000).astype(np.int16))]
'''
CELL = '''
with torch.no_grad():
    MODEL.set_generation_params(duration=duration)
    processed_melodies = []
    target_sr = 32000
    target_ac = 1
    for melody in melodies:
        if melody is None:
            processed_melodies.append(None)
        else:
            sr, melody = melody[0], torch.from_numpy(melody[1]).to(MODEL.device).float().t()
            if melody.dim() == 1:
                melody = melody[None]
            melody = melody[..., :int(sr * duration)]
            melody = convert_audio(melody, sr, target_sr, target_ac)
            processed_melodies.append(melody)
    outputs = MODEL.generate_with_chroma(
        descriptions=texts,
        melody_wavs=processed_melodies,
        melody_sample_rate=target_sr,
        progress=False,
        return_tokens=USE_DIFFUSION
    )
    outputs = outputs.detach().cpu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
