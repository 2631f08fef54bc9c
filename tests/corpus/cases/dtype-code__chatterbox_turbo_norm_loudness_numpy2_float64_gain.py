"""Chatterbox Turbo with numpy >= 2: `norm_loudness` turns the float32 reference wav into float64.

Source: https://github.com/resemble-ai/chatterbox/issues/499
`ChatterboxTurboTTS.generate(..., audio_prompt_path=...)` failed with "expected scalar type Double but
found Float" (m1/m2 dtype on the CPU). Root cause from the thread: `norm_loudness` computes
`gain_linear = 10.0 ** (gain_db / 20.0)` from pyloudnorm's numpy float64 loudness; under NEP 50 the
float32 wav times that numpy scalar is a float64 array, which then meets the S3 tokenizer's float32
mel filters. The one-line fix is `gain_linear = float(...)`. Stand-ins: a loudness meter returning a
numpy float64, a reduced S3 tokenizer (STFT + mel filter matmul), no model weights. Run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

S3GEN_SR = 24000
S3_SR = 16000

class Meter:                                     # pyloudnorm.Meter stand-in
    def __init__(self, rate):
        self.rate = rate
    def integrated_loudness(self, data):
        return np.float64(-0.691 + 10 * np.log10(np.mean(np.square(data, dtype=np.float64)) + 1e-12))

class S3Tokenizer(nn.Module):
    def __init__(self, n_fft=400, n_mels=16):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("_mel_filters", torch.rand(n_mels, n_fft // 2 + 1))
        self.proj = nn.Linear(n_mels, 8)

    def log_mel_spectrogram(self, audio):
        if not torch.is_tensor(audio):
            audio = torch.from_numpy(audio)
        stft = torch.stft(audio, self.n_fft, 160, window=self.window, return_complex=True)
        magnitudes = stft[..., :-1].abs() ** 2
        mel_spec = self._mel_filters @ magnitudes
        return torch.clamp(mel_spec, min=1e-10).log10()

    def forward(self, wavs):
        mels = self.log_mel_spectrogram(wavs[0])
        return self.proj(mels.T).argmax(-1)

class ChatterboxTurboTTS:
    def __init__(self):
        self.tokenizer = S3Tokenizer()
        self.conds = None

    def norm_loudness(self, wav, sr, target_lufs=-27):
        try:
            meter = Meter(sr)
            loudness = meter.integrated_loudness(wav)
            gain_db = target_lufs - loudness
            gain_linear = 10.0 ** (gain_db / 20.0)
            if math.isfinite(gain_linear) and gain_linear > 0.0:
                wav = wav * gain_linear
        except Exception as e:
            print(f"Warning: Error in norm_loudness, skipping: {e}")
        return wav

    def prepare_conditionals(self, wav_fpath, exaggeration=0.5, norm_loudness=True):
        s3gen_ref_wav, _sr = librosa_load(wav_fpath, sr=S3GEN_SR)
        if norm_loudness:
            s3gen_ref_wav = self.norm_loudness(s3gen_ref_wav, _sr)
        ref_16k_wav = s3gen_ref_wav[::3][: 2 * S3_SR]        # librosa.resample stand-in
        t3_cond_prompt_tokens = self.tokenizer([ref_16k_wav])
        self.conds = {"prompt_tokens": t3_cond_prompt_tokens, "exaggeration": exaggeration}

    def generate(self, text, audio_prompt_path=None, **kwargs):
        if audio_prompt_path:
            self.prepare_conditionals(audio_prompt_path)
        return self.conds

def librosa_load(path, sr):
    rng = np.random.default_rng(0)
    return (0.1 * rng.standard_normal(6 * sr)).astype(np.float32), sr   # librosa gives float32

model = ChatterboxTurboTTS()
text = "Oh, that's hilarious! Anyway, we have a new model in the store."
'''
CELL = '''
out = model.generate(text, audio_prompt_path="reference.wav")
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected scalar type Double but found Float",
                "expected scalar type Float but found Double")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("gain_linear = 10.0 ** (gain_db / 20.0)", "gain_linear = float(10.0 ** (gain_db / 20.0))")
CLEAN = False
