"""torch-radon FBP: the ramp filter is built with numpy, cached by FourierFilters and fetched `.to(sinogram.device)` per call.

Source: https://github.com/carterbox/torch-radon/pull/18
`Radon.filter_sinogram` pads `sinogram.float()`, takes `torch.fft.rfft(..., norm="ortho")`, gets
`f = self.fourier_filters.get(padded_size, filter_name, sinogram.device)` and multiplies; the
reviewer asked to build the filter once in `__init__` on the CPU and `.to(sino_fft.device)` at use,
the author answered it is already cached in a dict by FourierFilters. Look-alike: a float64 numpy
filter and angles kept on the CPU next to a cuda sinogram, converted and moved before use.
Stand-in: FourierFilters and the filtering step (the CUDA projector itself is replaced by the given
sinogram).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

class FourierFilters:
    def __init__(self):
        self.cache = {}

    def get(self, size, filter_name, device):
        key = (size, filter_name)
        if key not in self.cache:
            n = np.concatenate((np.arange(1, size / 2 + 1, 2, dtype=int), np.arange(size / 2 - 1, 0, -2, dtype=int)))
            f = np.zeros(size)
            f[0] = 0.25
            f[1::2] = -1 / (np.pi * n) ** 2
            ff = 2 * np.real(np.fft.fft(f))[: size // 2 + 1]          # float64 ramp
            self.cache[key] = torch.FloatTensor(ff)
        return self.cache[key].to(device)

class Radon:
    def __init__(self, resolution, angles, det_count):
        self.angles = torch.FloatTensor(np.asarray(angles))           # stays on the CPU
        self.det_count = det_count
        self.fourier_filters = FourierFilters()

    def filter_sinogram(self, sinogram, filter_name="ramp"):
        size = sinogram.size(-1)
        padded_size = max(64, int(2 ** np.ceil(np.log2(2 * size))))
        pad = padded_size - size
        padded_sinogram = F.pad(sinogram.float(), (0, pad, 0, 0))
        sino_fft = torch.fft.rfft(padded_sinogram, norm="ortho")
        f = self.fourier_filters.get(padded_size, filter_name, sinogram.device)
        filtered_sino_fft = sino_fft * f
        return torch.fft.irfft(filtered_sino_fft, norm="ortho")[..., :size]

device = "cuda:0"
angles = np.linspace(0, np.pi, 90, endpoint=False)
radon = Radon(64, angles, det_count=64)
sinogram = torch.rand(1, 90, 64, device=device)
'''
CELL = '''
filtered_sinogram = radon.filter_sinogram(sinogram, "ramp")
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
