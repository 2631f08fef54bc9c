"""SpeechBrain `SpectralMaskEnhancement`: the `STFT` feature module keeps its window as a plain CPU attribute and moves it in `forward`.

Source: https://github.com/speechbrain/speechbrain/blob/develop/speechbrain/processing/features.py (class STFT) and speechbrain/inference/enhancement.py
`STFT.__init__` stores `self.window = window_fn(self.win_length)`: not a buffer, so `Module.to()` leaves
it on the CPU. That looks like the classic stft-window bug, but `STFT.forward` passes
`self.window.to(x.device)` to `torch.stft` on every call. `SpectralMaskEnhancement.enhance_batch`
moves the noisy batch with `noisy.to(self.device)`, computes log-magnitude features with
`hparams.compute_stft` / `spectral_magnitude`, and masks them with the GPU `enhance_model`.
Look-alike: a CPU window attribute on a module used with CUDA audio; it runs.
Stand-ins: `Pretrained` reduced to mods/hparams/device; a linear mask estimator in place of
MetricGAN+'s generator; resynthesis left out (the enhanced log-magnitudes are returned).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class STFT(nn.Module):
    def __init__(self, sample_rate, win_length=25, hop_length=10, n_fft=400,
                 window_fn=torch.hamming_window, normalized_stft=False, center=True,
                 pad_mode="constant", onesided=True):
        super().__init__()
        self.sample_rate = sample_rate
        self.n_fft = n_fft
        self.normalized_stft = normalized_stft
        self.center = center
        self.pad_mode = pad_mode
        self.onesided = onesided
        self.win_length = int(round((self.sample_rate / 1000.0) * win_length))
        self.hop_length = int(round((self.sample_rate / 1000.0) * hop_length))
        self.window = window_fn(self.win_length)

    def forward(self, x):
        stft = torch.stft(
            x, self.n_fft, self.hop_length, self.win_length, self.window.to(x.device),
            self.center, self.pad_mode, self.normalized_stft, self.onesided,
            return_complex=True,
        )
        stft = torch.view_as_real(stft)
        return stft.transpose(2, 1)            # (batch, time, freq, 2)

def spectral_magnitude(stft, power=1, log=False, eps=1e-14):
    spectr = stft.pow(2).sum(-1)
    if power < 1:
        spectr = spectr + eps
    return spectr.pow(power)

class HParams:
    compute_stft = STFT(sample_rate=16000, win_length=32, hop_length=16, n_fft=512)
    spectral_magnitude = staticmethod(lambda x: spectral_magnitude(x, power=0.5))

class SpectralMaskEnhancement(nn.Module):
    """speechbrain.inference.enhancement.SpectralMaskEnhancement (reduced)."""
    def __init__(self, modules, hparams, device):
        super().__init__()
        self.mods = nn.ModuleDict(modules).to(device)
        self.hparams = hparams
        self.device = device

    def compute_features(self, wavs):
        feats = self.hparams.compute_stft(wavs)
        feats = self.hparams.spectral_magnitude(feats)
        return torch.log1p(feats)

    def enhance_batch(self, noisy, lengths=None):
        noisy = noisy.to(self.device)
        noisy_features = self.compute_features(noisy)
        mask = self.mods.enhance_model(noisy_features)
        return torch.mul(mask, noisy_features)

enhance_model = nn.Sequential(nn.Linear(257, 257), nn.Sigmoid())
enhancer = SpectralMaskEnhancement({"enhance_model": enhance_model}, HParams(), device="cuda:0")
noisy = torch.randn(1, 16000)                   # enhancer.load_audio(...) returns a CPU waveform
'''
CELL = '''
enhanced_feats = enhancer.enhance_batch(noisy)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
