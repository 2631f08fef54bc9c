"""torchaudio `transforms.Fade` on a GPU waveform: the fade-in/fade-out curves are generated on the CPU.

Source: https://github.com/pytorch/audio/pull/508
"Fix Fade device compatibility": `Fade.forward` multiplies `self._fade_in(waveform_length) *
self._fade_out(waveform_length) * waveform`, and both helpers build their curves with
`torch.linspace(0, 1, fade_len)` / `torch.ones(...)` without a device, so a CUDA waveform failed with
"expected device cpu but got device cuda:0". The PR passes the waveform's device into `_fade_in` /
`_fade_out` and creates the curves there. Stand-in: `Fade` as in torchaudio 0.5 (all fade shapes);
the waveform is a chunk of separated stems like in the hybrid-demucs chunking loop.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch

class Fade(torch.nn.Module):
    """torchaudio.transforms.Fade (0.5)."""
    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape="linear"):
        super(Fade, self).__init__()
        self.fade_in_len = fade_in_len
        self.fade_out_len = fade_out_len
        self.fade_shape = fade_shape

    def forward(self, waveform):
        waveform_length = waveform.size()[-1]
        return self._fade_in(waveform_length) * self._fade_out(waveform_length) * waveform

    def _fade_in(self, waveform_length):
        fade = torch.linspace(0, 1, self.fade_in_len)
        ones = torch.ones(waveform_length - self.fade_in_len)
        if self.fade_shape == "exponential":
            fade = torch.pow(2, (fade - 1) * 5)
        if self.fade_shape == "logarithmic":
            fade = torch.log10(.1 + fade) + 1
        if self.fade_shape == "quarter_sine":
            fade = torch.sin(fade * math.pi / 2)
        if self.fade_shape == "half_sine":
            fade = torch.sin(fade * math.pi - math.pi / 2) / 2 + 0.5
        return torch.cat((fade, ones)).clamp_(0, 1)

    def _fade_out(self, waveform_length):
        fade = torch.linspace(0, 1, self.fade_out_len)
        ones = torch.ones(waveform_length - self.fade_out_len)
        if self.fade_shape == "exponential":
            fade = torch.pow(2, - fade * 5)
        if self.fade_shape == "logarithmic":
            fade = torch.log10(1.1 - fade) + 1
        if self.fade_shape == "quarter_sine":
            fade = torch.sin(fade * math.pi / 2 + math.pi / 2)
        if self.fade_shape == "half_sine":
            fade = torch.sin(fade * math.pi + math.pi / 2) / 2 + 0.5
        fade = 1 - torch.linspace(0, 1, self.fade_out_len) if self.fade_shape == "linear" else fade
        return torch.cat((ones, fade)).clamp_(0, 1)

device = torch.device("cuda:0")
sample_rate = 8000
fade = Fade(fade_in_len=0, fade_out_len=int(0.1 * sample_rate), fade_shape="linear")
out = torch.randn(1, 4, 2, sample_rate * 2, device=device)     # model.forward(chunk) on the GPU
'''
CELL = '''
out = fade(out)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected device")
CULPRITS = ["fade"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '    def forward(self, waveform):\n        waveform_length = waveform.size()[-1]\n        return self._fade_in(waveform_length) * self._fade_out(waveform_length) * waveform\n\n    def _fade_in(self, waveform_length):\n        fade = torch.linspace(0, 1, self.fade_in_len)\n        ones = torch.ones(waveform_length - self.fade_in_len)\n        if self.fade_shape == "exponential":\n            fade = torch.pow(2, (fade - 1) * 5)\n        if self.fade_shape == "logarithmic":\n            fade = torch.log10(.1 + fade) + 1\n        if self.fade_shape == "quarter_sine":\n            fade = torch.sin(fade * math.pi / 2)\n        if self.fade_shape == "half_sine":\n            fade = torch.sin(fade * math.pi - math.pi / 2) / 2 + 0.5\n        return torch.cat((fade, ones)).clamp_(0, 1)\n\n    def _fade_out(self, waveform_length):\n        fade = torch.linspace(0, 1, self.fade_out_len)\n        ones = torch.ones(waveform_length - self.fade_out_len)\n        if self.fade_shape == "exponential":\n            fade = torch.pow(2, - fade * 5)\n        if self.fade_shape == "logarithmic":\n            fade = torch.log10(1.1 - fade) + 1\n        if self.fade_shape == "quarter_sine":\n            fade = torch.sin(fade * math.pi / 2 + math.pi / 2)\n        if self.fade_shape == "half_sine":\n            fade = torch.sin(fade * math.pi + math.pi / 2) / 2 + 0.5\n        fade = 1 - torch.linspace(0, 1, self.fade_out_len) if self.fade_shape == "linear" else fade\n        return torch.cat((ones, fade)).clamp_(0, 1)\n',
    '    def forward(self, waveform):\n        waveform_length = waveform.size()[-1]\n        device = waveform.device\n        return self._fade_in(waveform_length, device) * self._fade_out(waveform_length, device) * waveform\n\n    def _fade_in(self, waveform_length, device):\n        fade = torch.linspace(0, 1, self.fade_in_len, device=device)\n        ones = torch.ones(waveform_length - self.fade_in_len, device=device)\n        if self.fade_shape == "exponential":\n            fade = torch.pow(2, (fade - 1) * 5)\n        if self.fade_shape == "logarithmic":\n            fade = torch.log10(.1 + fade) + 1\n        if self.fade_shape == "quarter_sine":\n            fade = torch.sin(fade * math.pi / 2)\n        if self.fade_shape == "half_sine":\n            fade = torch.sin(fade * math.pi - math.pi / 2) / 2 + 0.5\n        return torch.cat((fade, ones)).clamp_(0, 1)\n\n    def _fade_out(self, waveform_length, device):\n        fade = torch.linspace(0, 1, self.fade_out_len, device=device)\n        ones = torch.ones(waveform_length - self.fade_out_len, device=device)\n        if self.fade_shape == "exponential":\n            fade = torch.pow(2, - fade * 5)\n        if self.fade_shape == "logarithmic":\n            fade = torch.log10(1.1 - fade) + 1\n        if self.fade_shape == "quarter_sine":\n            fade = torch.sin(fade * math.pi / 2 + math.pi / 2)\n        if self.fade_shape == "half_sine":\n            fade = torch.sin(fade * math.pi + math.pi / 2) / 2 + 0.5\n        fade = 1 - torch.linspace(0, 1, self.fade_out_len, device=device) if self.fade_shape == "linear" else fade\n        return torch.cat((ones, fade)).clamp_(0, 1)\n',
)
CLEAN = False
