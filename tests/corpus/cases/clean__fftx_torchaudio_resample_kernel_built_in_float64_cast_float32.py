"""Look-alike: torchaudio's sinc resampling kernel is computed in float64 and handed to the float32 waveform as float32.

Source: https://github.com/pytorch/audio/blob/main/src/torchaudio/functional/functional.py
`_get_sinc_resample_kernel(..., dtype=None)` builds its time index with
`idx_dtype = dtype if dtype is not None else torch.float64` (float64 `arange`, float64 window and
sinc) and ends with `kernels = kernels.to(dtype=torch.float32)` when no dtype was asked for;
`transforms.Resample` registers that kernel as a buffer and `_apply_sinc_resample_kernel` convolves
the float32 waveform with it. float64 intermediates next to a float32 signal are deliberate.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch

def _get_sinc_resample_kernel(orig_freq, new_freq, gcd, lowpass_filter_width=6, rolloff=0.99,
                              resampling_method="sinc_interp_hann", beta=None,
                              device=torch.device("cpu"), dtype=None):
    orig_freq = int(orig_freq) // gcd
    new_freq = int(new_freq) // gcd
    base_freq = min(orig_freq, new_freq)
    base_freq *= rolloff
    width = math.ceil(lowpass_filter_width * orig_freq / base_freq)
    idx_dtype = dtype if dtype is not None else torch.float64
    idx = torch.arange(-width, width + orig_freq, dtype=idx_dtype, device=device)[None, None] / orig_freq
    t = torch.arange(0, -new_freq, -1, dtype=dtype, device=device)[:, None, None] / new_freq + idx
    t *= base_freq
    t = t.clamp_(-lowpass_filter_width, lowpass_filter_width)
    window = torch.cos(t * math.pi / lowpass_filter_width / 2) ** 2
    t *= math.pi
    scale = base_freq / orig_freq
    kernels = torch.where(t == 0, torch.tensor(1.0).to(t), t.sin() / t)
    kernels *= window * scale
    if dtype is None:
        kernels = kernels.to(dtype=torch.float32)
    return kernels, width

def _apply_sinc_resample_kernel(waveform, orig_freq, new_freq, gcd, kernel, width):
    orig_freq = int(orig_freq) // gcd
    new_freq = int(new_freq) // gcd
    shape = waveform.size()
    waveform = waveform.view(-1, shape[-1])
    num_wavs, length = waveform.shape
    waveform = torch.nn.functional.pad(waveform, (width, width + orig_freq))
    resampled = torch.nn.functional.conv1d(waveform[:, None], kernel, stride=orig_freq)
    resampled = resampled.transpose(1, 2).reshape(num_wavs, -1)
    target_length = int(math.ceil(new_freq * length / orig_freq))
    resampled = resampled[..., :target_length]
    return resampled.view(shape[:-1] + resampled.shape[-1:])

class Resample(torch.nn.Module):
    """torchaudio.transforms.Resample (stand-in, sinc_interp_hann only)."""
    def __init__(self, orig_freq=16000, new_freq=16000, lowpass_filter_width=6, rolloff=0.99, dtype=None):
        super().__init__()
        self.orig_freq, self.new_freq = orig_freq, new_freq
        self.gcd = math.gcd(int(self.orig_freq), int(self.new_freq))
        kernel, self.width = _get_sinc_resample_kernel(self.orig_freq, self.new_freq, self.gcd,
                                                       lowpass_filter_width, rolloff, dtype=dtype)
        self.register_buffer("kernel", kernel, persistent=False)

    def forward(self, waveform):
        return _apply_sinc_resample_kernel(waveform, self.orig_freq, self.new_freq, self.gcd,
                                           self.kernel, self.width)

resampler = Resample(orig_freq=44100, new_freq=16000)
waveform = torch.randn(2, 44100)          # float32, as torchaudio.load returns it
'''
CELL = '''
resampled = resampler(waveform)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
