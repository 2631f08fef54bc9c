"""ESPnet x-vector extraction with a SpeechBrain ECAPA: the float64 waveform from `SoundScpReader` reaches the float32 resampling kernel.

Source: https://github.com/espnet/espnet/issues/5099
`egs2/aishell3/tts1` stage 3 (`pyscripts/utils/extract_xvectors.py --toolkit speechbrain`) failed in
`xv_extractor(wav, in_sr)` -> `self.audio_norm(torch.from_numpy(wav), in_sr)` -> SpeechBrain's
`Resample._perform_resample` conv1d with "RuntimeError: expected scalar type Double but found Float".
`SoundScpReader` had just started returning `soundfile.read()`'s float64 arrays (espnet PR #4997), so the
amplitude-normalised `wav = wav / amax` was float64 while the resampler's sinc weights are float32; the
maintainers' fix (PR #5112 "Dtype for Speechbrain", "Fix #5099") casts it: `wav.astype(np.float32) / amax`.
Stand-ins: `SoundScpReader` returns a float64 array as soundfile does; SpeechBrain's `AudioNormalizer`
and `Resample` keep the lazily built float32 polyphase weights and the per-phase conv1d; the ECAPA
`EncoderClassifier` is reduced to a fbank-like conv and a linear embedding.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import argparse
import functools
import math
import numpy as np
import torch
from torch import nn

class Resample(torch.nn.Module):
    """Stand-in for speechbrain.processing.speech_augmentation.Resample (sinc polyphase filter)."""
    def __init__(self, orig_freq=16000, new_freq=16000, lowpass_filter_width=6):
        super().__init__()
        self.orig_freq, self.new_freq = orig_freq, new_freq
        self.lowpass_filter_width = lowpass_filter_width
        base_freq = math.gcd(orig_freq, new_freq)
        self.conv_stride = orig_freq // base_freq
        self.output_samples = new_freq // base_freq

    def forward(self, waveforms):
        if not hasattr(self, "first_indices"):
            self._indices_and_weights(waveforms)
        if self.orig_freq == self.new_freq:
            return waveforms
        waveforms = waveforms.unsqueeze(1)
        return self._perform_resample(waveforms).squeeze(1)

    def _indices_and_weights(self, waveforms):
        min_freq = min(self.orig_freq, self.new_freq)
        lowpass_cutoff = 0.99 * 0.5 * min_freq
        window_width = self.lowpass_filter_width / (2.0 * lowpass_cutoff)
        output_t = torch.arange(start=0.0, end=self.output_samples, device=waveforms.device)
        output_t /= self.new_freq
        min_input_index = torch.ceil((output_t - window_width) * self.orig_freq)
        max_input_index = torch.floor((output_t + window_width) * self.orig_freq)
        num_indices = max_input_index - min_input_index + 1
        j = torch.arange(int(num_indices.max()), device=waveforms.device)
        input_index = min_input_index.unsqueeze(1) + j.unsqueeze(0)
        delta_t = (input_index / self.orig_freq) - output_t.unsqueeze(1)
        weights = torch.zeros_like(delta_t)
        inside = delta_t.abs().lt(window_width)
        weights[inside] = 0.5 * (1 + torch.cos(2 * math.pi * lowpass_cutoff / self.lowpass_filter_width * delta_t[inside]))
        self.first_indices = min_input_index
        self.weights = weights / self.orig_freq

    def _perform_resample(self, waveforms):
        batch_size, num_channels, wave_len = waveforms.size()
        out = []
        for i in range(self.first_indices.size(0)):
            first_index = max(0, int(self.first_indices[i]))
            wave_to_conv = waveforms[..., first_index:]
            conv_wave = torch.nn.functional.conv1d(
                input=wave_to_conv,
                weight=self.weights[i].repeat(num_channels, 1, 1),
                stride=self.conv_stride,
                groups=num_channels,
            )
            out.append(conv_wave)
        n = min(o.size(-1) for o in out)
        return torch.stack([o[..., :n] for o in out], dim=-1).reshape(batch_size, num_channels, -1)

class AudioNormalizer:
    """Stand-in for speechbrain.dataio.preprocess.AudioNormalizer."""
    def __init__(self, sample_rate=16000, mix="avg-to-mono"):
        self.sample_rate = sample_rate
        self.mix = mix
        self._cached_resample = functools.lru_cache(maxsize=12)(Resample)

    def __call__(self, audio, sample_rate):
        resampler = self._cached_resample(sample_rate, self.sample_rate)
        resampled = resampler(audio.unsqueeze(0)).squeeze(0)
        return resampled

class EncoderClassifier(nn.Module):
    """Stand-in for speechbrain.pretrained.EncoderClassifier (spkrec-ecapa-voxceleb)."""
    def __init__(self, device="cpu"):
        super().__init__()
        self.compute_features = nn.Conv1d(1, 24, 400, stride=160)
        self.embedding_model = nn.Linear(24, 192)
        self.device = device

    @classmethod
    def from_hparams(cls, source, run_opts=None):
        return cls(**(run_opts or {})).eval()

    def encode_batch(self, wavs, wav_lens=None):
        if len(wavs.shape) == 1:
            wavs = wavs.unsqueeze(0)
        wavs = wavs.float()
        with torch.no_grad():
            feats = self.compute_features(wavs.unsqueeze(1))
            return self.embedding_model(feats.mean(-1)).unsqueeze(1)

class XVExtractor:
    def __init__(self, args, device):
        self.toolkit = args.toolkit
        self.device = device
        self.audio_norm = AudioNormalizer()
        if self.toolkit == "speechbrain":
            self.model = EncoderClassifier.from_hparams(
                source=args.pretrained_model, run_opts={"device": device}
            )

    def __call__(self, wav, in_sr):
        wav = self.audio_norm(torch.from_numpy(wav), in_sr).to(self.device)
        if self.toolkit == "speechbrain":
            embeds = self.model.encode_batch(wav).detach().cpu().numpy()[0]
        return embeds

class SoundScpReader:
    """Stand-in for espnet2.fileio.sound_scp.SoundScpReader: soundfile.read() without a dtype -> float64."""
    def __init__(self, fname):
        self.rng = np.random.default_rng(0)

    def __getitem__(self, key):
        pcm = self.rng.integers(-20000, 20000, size=24000)
        return 24000, pcm / 32768.0

args = argparse.Namespace(toolkit="speechbrain", pretrained_model="speechbrain/spkrec-ecapa-voxceleb")
xv_extractor = XVExtractor(args, "cpu")
wav_scp = SoundScpReader("dump/raw/org/train_no_dev/wav.scp")
in_sr, wav = wav_scp["SSB00050001"]
# Amp Normalization -1 ~ 1
amax = np.amax(np.absolute(wav))
wav = wav / amax
'''
CELL = '''
# X-vector Embedding
embeds = xv_extractor(wav, in_sr)
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "Input type (double) and weight type (float)")
CULPRITS = ["wav"]
FIX = "namespace"
REFERENCE_FIX = '''
wav = wav.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
