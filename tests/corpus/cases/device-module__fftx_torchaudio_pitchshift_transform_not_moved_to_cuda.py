"""torchaudio `PitchShift` called on a CUDA waveform without moving the transform: its Hann window buffer is on the CPU.

Source: https://github.com/pytorch/audio/issues/3446
"Error while using PitchShift on GPU tensor": `effect = PitchShift(sample_rate=16000, n_steps=1)`
applied to `torch.randn(1600, device="cuda:0")` raised "stft input and window must be on the same
device but got self on cuda:0 and window on cpu" inside `_stretch_waveform`; the reporter pointed at
the window built in `PitchShift.__init__`. A maintainer (mthrok) answered that the "move to CUDA"
pattern is the library's design: transforms are modules whose buffers follow `.to(device)`, and the
reporter closed the issue. Stand-in: `PitchShift` with its `window` buffer and the phase-vocoder
stretch reduced to stft -> windowed irfft frames, the sinc resampling reduced to linear interpolation.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import Tensor

def _stretch_waveform(waveform, n_steps, bins_per_octave, n_fft, win_length, hop_length, window):
    """torchaudio.functional.functional._stretch_waveform (phase vocoder reduced)."""
    ori_len = waveform.shape[-1]
    rate = 2.0 ** (-float(n_steps) / bins_per_octave)
    spec_f = torch.stft(input=waveform, n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                        window=window, center=True, pad_mode="reflect", normalized=False,
                        onesided=True, return_complex=True)
    len_stretch = int(round(ori_len / rate))
    frames = torch.fft.irfft(spec_f.transpose(-1, -2), n=n_fft) * window      # istft's synthesis
    return torch.nn.functional.interpolate(frames.reshape(1, 1, -1), size=len_stretch,
                                           mode="linear").reshape(len_stretch)

class PitchShift(torch.nn.Module):
    """Stand-in for torchaudio.transforms.PitchShift (window kept as a registered buffer)."""
    def __init__(self, sample_rate, n_steps, bins_per_octave=12, n_fft=512, win_length=None,
                 hop_length=None, window_fn=torch.hann_window, wkwargs=None):
        super().__init__()
        self.n_steps = n_steps
        self.bins_per_octave = bins_per_octave
        self.sample_rate = sample_rate
        self.n_fft = n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 4
        window = window_fn(self.win_length) if wkwargs is None else window_fn(self.win_length, **wkwargs)
        self.register_buffer("window", window)
        rate = 2.0 ** (-float(n_steps) / bins_per_octave)
        self.orig_freq = int(sample_rate / rate)

    def forward(self, waveform: Tensor) -> Tensor:
        shape = waveform.size()
        waveform_stretch = _stretch_waveform(waveform, self.n_steps, self.bins_per_octave, self.n_fft,
                                             self.win_length, self.hop_length, self.window)
        waveform_shift = torch.nn.functional.interpolate(         # sinc resampling in torchaudio
            waveform_stretch.reshape(1, 1, -1), size=shape[-1], mode="linear").reshape(shape)
        return waveform_shift

waveform = torch.randn(1600, device=torch.device("cuda:0"))
effect = PitchShift(
    sample_rate = 16000,
    n_steps = 1,
)
'''
CELL = '''
output_tensor = effect(waveform)
'''
EXPECT_ERROR = ("must be on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["effect"]
FIX = "namespace"
REFERENCE_FIX = '''
effect = effect.to(waveform.device)
'''
REFERENCE_EDIT = None
CLEAN = False
