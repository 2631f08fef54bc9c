"""Look-alike: audiotools' `AudioSignal.get_window` caches windows per device string, CPU ones included.

Source: https://github.com/descriptinc/audiotools/blob/master/audiotools/core/audio_signal.py
`get_window` is an `lru_cache`d static method taking `(window_type, window_length, device)`; it builds
the window with numpy/scipy and returns `torch.from_numpy(window).to(device).float()`. `stft` asks
for `self.get_window(window_type, window_length, self.audio_data.device)`, so a signal on the GPU
gets a GPU window even though the cache already holds a CPU window from an earlier CPU signal.
Stand-in: a reduced `AudioSignal` (audio_data, sample_rate, `stft`), scipy's window by numpy.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import functools
import numpy as np
import torch

class AudioSignal:
    """audiotools.AudioSignal stand-in (STFT path)."""
    def __init__(self, audio_data, sample_rate):
        self.audio_data = audio_data if audio_data.ndim == 3 else audio_data.reshape(1, 1, -1)
        self.sample_rate = sample_rate
        self.stft_data = None

    @property
    def device(self):
        return self.audio_data.device

    def to(self, device):
        self.audio_data = self.audio_data.to(device)
        return self

    @staticmethod
    @functools.lru_cache(None)
    def get_window(window_type: str, window_length: int, device: str):
        if window_type == "average":
            window = np.ones(window_length) / window_length
        elif window_type == "sqrt_hann":
            window = np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(window_length) / window_length))
        else:
            window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(window_length) / window_length)
        window = torch.from_numpy(window).to(device).float()
        return window

    def stft(self, window_length=2048, hop_length=512, window_type="hann"):
        window = self.get_window(window_type, window_length, self.audio_data.device)
        window = window.to(self.audio_data.device)
        audio_data = self.audio_data.reshape(-1, self.audio_data.shape[-1])
        stft_data = torch.stft(audio_data, n_fft=window_length, hop_length=hop_length,
                               window=window, return_complex=True, center=True)
        _, nf, nt = stft_data.shape
        self.stft_data = stft_data.reshape(self.audio_data.shape[0], self.audio_data.shape[1], nf, nt)
        return self.stft_data

    @property
    def magnitude(self):
        if self.stft_data is None:
            self.stft()
        return torch.abs(self.stft_data)

ref = AudioSignal(torch.randn(1, 1, 44100), 44100)
_ = ref.stft()                                    # caches a CPU window for ("hann", 2048, cpu)
signal = AudioSignal(torch.randn(1, 1, 44100), 44100).to("cuda:0")
'''
CELL = '''
mag = signal.magnitude
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
