"""torchkbnufft: `KbNufft(im_size).to(image)` moves its interpolation tables (registered buffers), the radial `ktraj` is moved by the user.

Source: https://github.com/mmuckley/torchkbnufft
The README's radial example: `nufft_ob = tkbn.KbNufft(im_size=im_size).to(image)`; the Kaiser-Bessel
tables and scaling coefficients are precomputed on the CPU in `__init__` and registered as buffers, so
`.to(image)` carries them (and their complex dtype) to the image's device; `ktraj` built from numpy
is moved with `.to(device)` and the complex64 image goes in. Look-alike: tables computed on the CPU at
construction and a complex image beside real trajectory. Stand-in: a reduced KbNufft (scaling, oversampled
FFT, nearest-neighbour interpolation replaced by a table-weighted average and the trajectory's phase).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

class KbNufft(torch.nn.Module):
    def __init__(self, im_size, grid_size=None, dtype=torch.complex64):
        super().__init__()
        self.im_size = im_size
        self.grid_size = grid_size or tuple(2 * s for s in im_size)
        n = torch.arange(im_size[0], dtype=torch.float64) - im_size[0] // 2
        scaling = torch.exp(-0.5 * (n / im_size[0]) ** 2)
        scaling = (scaling[:, None] * scaling[None, :]).to(dtype)
        self.register_buffer("scaling_coef", scaling)
        self.register_buffer("table_0", torch.ones(self.grid_size[0], dtype=dtype))

    def forward(self, image, omega):
        x = image * self.scaling_coef
        pad = [0, self.grid_size[1] - self.im_size[1], 0, self.grid_size[0] - self.im_size[0]]
        k = torch.fft.fft2(torch.nn.functional.pad(x, pad), norm="ortho")
        phase = torch.exp(1j * omega.sum(0))                             # (K,) complex64 from real ktraj
        kdata = (k * self.table_0[:, None]).mean((-2, -1), keepdim=True).flatten(-2)
        return kdata * phase

device = "cuda:0"
im_size = (32, 32)
spokelength, nspokes = 64, 12
ga = np.deg2rad(180 / ((1 + np.sqrt(5)) / 2))
kx = np.zeros(shape=(spokelength, nspokes)); ky = np.zeros(shape=(spokelength, nspokes))
ky[:, 0] = np.linspace(-np.pi, np.pi, spokelength)
for i in range(1, nspokes):
    kx[:, i] = np.cos(ga) * kx[:, i - 1] - np.sin(ga) * ky[:, i - 1]
    ky[:, i] = np.sin(ga) * kx[:, i - 1] + np.cos(ga) * ky[:, i - 1]
ktraj = torch.tensor(np.stack((ky.flatten(), kx.flatten()), axis=0), dtype=torch.float32).to(device)
image = torch.randn(1, 1, *im_size, dtype=torch.complex64).to(device)
nufft_ob = KbNufft(im_size=im_size).to(image)
'''
CELL = '''
kdata = nufft_ob(image, ktraj)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
