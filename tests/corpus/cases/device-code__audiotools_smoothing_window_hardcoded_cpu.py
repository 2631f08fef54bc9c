"""audiotools Smoothing effect on a GPU signal: the smoothing window is built with `device="cpu"`.

Source: https://github.com/descriptinc/audiotools/issues/92
`t = Smoothing(); kwargs = t.instantiate(state=0, signal=signal_obj); output_obj = t(signal_obj,
**kwargs)` with the audio on cuda:0 failed with "Expected all tensors to be on the same device".
`Smoothing._instantiate` calls `signal.get_window(window_type=..., window_length=...,
device="cpu")`, so the window signal it returns lives on the CPU while the audio is on the GPU;
the reporter's proposed fix is `device=signal.audio_data.device`.
Stand-in: AudioSignal reduced to `audio_data`/`sample_rate`/`get_window`/`convolve` (FFT
convolution), the transform's instantiate/apply split kept.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F

class AudioSignal:
    def __init__(self, audio_data, sample_rate, device=None):
        self.audio_data = audio_data if device is None else audio_data.to(device)
        self.sample_rate = sample_rate

    @property
    def device(self):
        return self.audio_data.device

    @staticmethod
    def get_window(window_type, window_length, device):
        window = getattr(torch, f"{window_type}_window")(window_length)
        return window.to(device)

    def convolve(self, other):
        # FFT convolution, as AudioSignal.convolve does
        t = self.audio_data.shape[-1]
        kernel = other.audio_data / other.audio_data.abs().sum()
        delta = torch.fft.rfft(kernel, n=t)
        out = torch.fft.irfft(torch.fft.rfft(self.audio_data, n=t) * delta, n=t)
        return AudioSignal(out, self.sample_rate)

class Smoothing:
    def __init__(self, window_type="hann", window_length=64):
        self.window_type, self.window_length = window_type, window_length

    def _instantiate(self, state, signal=None):
        window = signal.get_window(
            window_type=self.window_type, window_length=self.window_length, device="cpu"
        )
        return {"window": AudioSignal(window.view(1, 1, -1), signal.sample_rate)}

    def instantiate(self, state=None, signal=None):
        return self._instantiate(state, signal)

    def __call__(self, signal, window):
        out = signal.convolve(window)
        sscale = signal.audio_data.abs().amax(dim=-1, keepdim=True)
        oscale = out.audio_data.abs().amax(dim=-1, keepdim=True).clamp_min(1e-8)
        out.audio_data = out.audio_data * (sscale / oscale)
        return out

audio_tensor_gpu = torch.randn(1, 1, 16000, device="cuda:0")
signal_obj = AudioSignal(audio_tensor_gpu, 16000, device=audio_tensor_gpu.device)
t = Smoothing()
'''
CELL = '''
kwargs = t.instantiate(state=0, signal=signal_obj)
output_obj = t(signal_obj, **kwargs)
augmented_aud = output_obj.audio_data
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["kwargs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'window_type=self.window_type, window_length=self.window_length, device="cpu"',
    'window_type=self.window_type, window_length=self.window_length, device=signal.audio_data.device',
)
CLEAN = False
