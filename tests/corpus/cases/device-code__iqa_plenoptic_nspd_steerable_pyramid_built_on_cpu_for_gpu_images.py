"""plenoptic `po.metric.nspd` on GPU images: the steerable pyramid built inside the metric keeps its Fourier masks on the CPU.

Source: https://github.com/plenoptic-org/plenoptic/issues/110
"po.metric.nlpd and po.metric.nspd break when the inputs are on GPU" (tutorial
04_Perceptual_distance: `img1`/`img2` moved `.to(device)`, `loss_func = po.metric.nspd`,
`value = loss_func(img1, img2)`). The maintainer's diagnosis: call `.to(image.device)` on the
pyramid after it is constructed and before it is applied, "add the line `linear.to(IM_1.device)`
... right before `pyr = linear(torch.cat((IM_1, IM_2), 0))`"; PR #111 did exactly that.
`Steerable_Pyramid_Freq` holds `lo0mask`, `hi0mask` and the per-scale mask lists as plain tensor
attributes moved by its own `to()` override, so a pyramid made inside `nspd` stays on the CPU.
Stand-in: the pyramid's undecimated branch (no sub-sampling) with simple radial/angular masks,
`torch.fft` + `view_as_real` for the old `torch.rfft`/`torch.ifft` layout, bands built with
`torch.stack`, and the batch split with `unbind` where the library indexes `[0]`/`[1]`; the
optimisation loop of the tutorial is left out (no autograd in the simulator).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from collections import OrderedDict
import numpy as np
import torch
import torch.nn as nn

def batch_fftshift(x):                                   # x: (..., H, W, 2)
    h, w = x.shape[-3], x.shape[-2]
    return torch.roll(x, shifts=(h // 2, w // 2), dims=(-3, -2))

def batch_ifftshift(x):
    h, w = x.shape[-3], x.shape[-2]
    return torch.roll(x, shifts=(-(h // 2), -(w // 2)), dims=(-3, -2))

def _ifft(x):                                            # torch.ifft(x, signal_ndim=2)
    return torch.view_as_real(torch.fft.ifft2(torch.view_as_complex(x.contiguous())))

class Steerable_Pyramid_Freq(nn.Module):
    def __init__(self, image_shape, height='auto', order=3, twidth=1, is_complex=False, downsample=False):
        super().__init__()
        self.order = order
        self.num_orientations = order + 1
        self.is_complex = is_complex
        self.downsample = downsample
        self.num_scales = int(height)
        self.scales = ['residual_highpass'] + list(range(self.num_scales)) + ['residual_lowpass']
        h, w = image_shape
        yramp, xramp = np.meshgrid(np.linspace(-1, 1, h, endpoint=False), np.linspace(-1, 1, w, endpoint=False), indexing='ij')
        self.angle = np.arctan2(yramp, xramp)
        self.log_rad = np.log2(np.sqrt(xramp ** 2 + yramp ** 2) + 1e-6)
        lo0mask = np.exp(-np.exp2(self.log_rad) ** 2 / 0.5)
        hi0mask = np.sqrt(np.clip(1 - lo0mask ** 2, 0, 1))
        self.lo0mask = torch.tensor(lo0mask).unsqueeze(0).unsqueeze(-1)
        self.hi0mask = torch.tensor(hi0mask).unsqueeze(0).unsqueeze(-1)
        self._anglemasks, self._anglemasks_recon, self._himasks, self._lomasks = [], [], [], []
        for i in range(self.num_scales):
            lomask = np.exp(-np.exp2(self.log_rad + i + 1) ** 2 / 0.5)
            himask = np.sqrt(np.clip(1 - lomask ** 2, 0, 1))
            self._himasks.append(torch.tensor(himask).unsqueeze(0).unsqueeze(-1))
            anglemasks = []
            for b in range(self.num_orientations):
                am = np.abs(np.cos(self.angle - np.pi * b / self.num_orientations)) ** self.order
                anglemasks.append(torch.tensor(am).unsqueeze(0).unsqueeze(-1))
            self._anglemasks.append(anglemasks)
            self._anglemasks_recon.append(anglemasks)
            self._lomasks.append(torch.tensor(lomask).unsqueeze(0).unsqueeze(-1))

    def to(self, *args, **kwargs):
        self.lo0mask = self.lo0mask.to(*args, **kwargs)
        self.hi0mask = self.hi0mask.to(*args, **kwargs)
        self._himasks = [m.to(*args, **kwargs) for m in self._himasks]
        self._lomasks = [m.to(*args, **kwargs) for m in self._lomasks]
        angles = []
        angles_recon = []
        for a, ar in zip(self._anglemasks, self._anglemasks_recon):
            angles.append([m.to(*args, **kwargs) for m in a])
            angles_recon.append([m.to(*args, **kwargs) for m in ar])
        self._anglemasks = angles
        self._anglemasks_recon = angles_recon
        return self

    def forward(self, x, scales=[]):
        self.pyr_coeffs = OrderedDict()
        if not scales:
            scales = self.scales
        lo0mask = self.lo0mask.clone()
        hi0mask = self.hi0mask.clone()
        assert len(x.shape) == 4, "Input must be batch of images of shape BxCxHxW"
        imdft = torch.view_as_real(torch.fft.fft2(x))       # torch.rfft(x, signal_ndim=2, onesided=False)
        imdft = batch_fftshift(imdft)
        if 'residual_highpass' in scales:
            hi0dft = imdft * hi0mask
            hi0 = _ifft(batch_ifftshift(hi0dft))
            self.pyr_coeffs['residual_highpass'] = torch.unbind(hi0, -1)[0]
        lodft = imdft * lo0mask
        for i in range(self.num_scales):
            if i in scales:
                himask = self._himasks[i]
                for b in range(self.num_orientations):
                    anglemask = self._anglemasks[i][b]
                    banddft = lodft * anglemask * himask
                    banddft = torch.unbind(banddft, -1)
                    complex_const = np.power(complex(0, -1), self.order)
                    banddft_real = complex_const.real * banddft[0] - complex_const.imag * banddft[1]
                    banddft_imag = complex_const.real * banddft[1] + complex_const.imag * banddft[0]
                    banddft = torch.stack((banddft_real, banddft_imag), -1)
                    band = _ifft(batch_ifftshift(banddft))
                    self.pyr_coeffs[(i, b)] = band if self.is_complex else torch.unbind(band, -1)[0]
            lomask = self._lomasks[i]
            lodft = lodft * lomask
        if 'residual_lowpass' in scales:
            lo0 = _ifft(batch_ifftshift(lodft))
            self.pyr_coeffs['residual_lowpass'] = torch.unbind(lo0, -1)[0]
        return self.pyr_coeffs

def rectangular_to_polar(real, imaginary):
    amplitude = torch.sqrt(real ** 2 + imaginary ** 2)
    phase = torch.atan2(imaginary, real)
    return amplitude, phase

def rectangular_to_polar_dict(coeff_dict, dim=-1, residuals=False):
    energy, state = {}, {}
    for key in coeff_dict.keys():
        if isinstance(key, tuple) or not key.startswith('residual'):
            energy[key], state[key] = rectangular_to_polar(*torch.unbind(coeff_dict[key], dim))
    return energy, state

def nspd(IM_1, IM_2, O=1, S=5, complex=True):
    """Normalized steerable pyramid distance"""
    if complex:
        linear = Steerable_Pyramid_Freq(IM_1.shape[-2:], order=O, height=S, is_complex=True)
        non_linear = rectangular_to_polar_dict
    else:
        raise NotImplementedError("local_gain_control branch not reproduced")
    pyr = linear(torch.cat((IM_1, IM_2), 0))
    norm, state = non_linear(pyr)
    epsilon = 1e-10
    dist = []
    for key in state.keys():
        n0, n1 = norm[key].unbind(0)                      # norm[key][0], norm[key][1]
        s0, s1 = state[key].unbind(0)
        dist.append(torch.sqrt(torch.mean((n0 - n1) ** 2) + epsilon))
        dist.append(torch.sqrt(torch.mean((s0 - s1) ** 2) + epsilon))
    return torch.stack(dist).mean()

device = torch.device("cuda:0")                           # torch.device("cuda" if torch.cuda.is_available() else "cpu")
np_img1 = np.random.rand(64, 64)                          # po.rescale(plt.imread('../data/einstein.png')[:, :, 0])
img1 = torch.tensor(np_img1, dtype=torch.float32).unsqueeze(0).unsqueeze(0).to(device)
img2 = torch.rand_like(img1).to(device)                   # requires_grad=True in the tutorial
loss_func = nspd
'''
CELL = '''
value = loss_func(img1, img2)
print(value.shape, value.device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["linear"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    pyr = linear(torch.cat((IM_1, IM_2), 0))",
                  "    linear.to(IM_1.device)\n    pyr = linear(torch.cat((IM_1, IM_2), 0))")
CLEAN = False
