"""kymatio's QM7 example feeds GPU densities to a `HarmonicScattering3D` that was never put on the GPU.

Source: https://github.com/kymatio/kymatio/issues/307
"BUG `scattering3d_qm7.py` crashes on GPU": a maintainer (janden) reports "The input is on the GPU,
but the scattering object has not been put in GPU mode" at the line that calls the scattering in
examples/3d/scattering3d_qm7.py; the example was later changed to
`HarmonicScattering3D(J=J, shape=(M, N, O), L=L, sigma_0=sigma).to(device)`. Stand-in: the
scattering object as a module whose Fourier-domain Gaussian/harmonic filters are registered buffers,
the forward an FFT, a product with the filters and the `integral` pooling.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch

class HarmonicScattering3D(torch.nn.Module):
    """Stand-in for kymatio.torch.HarmonicScattering3D (filters held as buffers, Fourier domain)."""
    def __init__(self, J, shape, L=3, sigma_0=1, max_order=2, integral_powers=(0.5, 1., 2.)):
        super().__init__()
        self.J, self.shape, self.L, self.sigma_0 = J, shape, L, sigma_0
        self.max_order = max_order
        self.method = "integral"
        self.integral_powers = integral_powers
        M, N, O = shape
        grid = torch.stack(torch.meshgrid(torch.fft.fftfreq(M), torch.fft.fftfreq(N),
                                          torch.fft.fftfreq(O), indexing="ij"))
        r2 = (grid ** 2).sum(0)
        filters = torch.stack([torch.exp(-0.5 * (2 ** j * sigma_0) ** 2 * r2 * (2 * np.pi) ** 2)
                               for j in range(J + 1) for _ in range(L + 1)])
        self.register_buffer("filters", filters.to(torch.complex64))
        self.register_buffer("gaussian_filters", filters[:: L + 1].to(torch.complex64))

    def forward(self, input_array):
        x_fft = torch.fft.fftn(input_array.to(torch.complex64), dim=(-3, -2, -1))
        conv = torch.fft.ifftn(x_fft[:, None] * self.filters[None], dim=(-3, -2, -1)).abs()
        return torch.stack([conv.pow(p).sum(dim=(-3, -2, -1)) for p in self.integral_powers], -1)

def generate_weighted_sum_of_gaussians(grid, positions, weights, sigma):
    """kymatio.scattering3d.backend stand-in (numpy)."""
    _, M, N, O = grid.shape
    out = np.zeros((positions.shape[0], M, N, O), dtype=np.float32)
    for b in range(positions.shape[0]):
        for pos, w in zip(positions[b], weights[b]):
            d2 = ((grid - pos[:, None, None, None]) ** 2).sum(0)
            out[b] += w * np.exp(-0.5 * d2 / sigma ** 2)
    return out

device = 'cuda:0'
M, N, O, J, L = 16, 16, 16, 2, 3
sigma = 2.
integral_powers = [0.5, 1., 2., 3.]
grid = np.mgrid[-M//2:-M//2+M, -N//2:-N//2+N, -O//2:-O//2+O].astype('float32')
grid = np.fft.ifftshift(grid, axes=(1, 2, 3))
rng = np.random.RandomState(0)
pos_batch = rng.uniform(-4, 4, size=(8, 5, 3)).astype('float32')
full_batch = rng.randint(1, 9, size=(8, 5)).astype('float32')

scattering = HarmonicScattering3D(J=J, shape=(M, N, O), L=L, sigma_0=sigma)

full_density_batch = generate_weighted_sum_of_gaussians(grid, pos_batch, full_batch, sigma)
full_density_batch = torch.from_numpy(full_density_batch)
full_density_batch = full_density_batch.to(device).float()
scattering.max_order = 2
scattering.method = 'integral'
scattering.integral_powers = integral_powers
'''
CELL = '''
full_scattering = scattering(full_density_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["scattering"]
FIX = "namespace"
REFERENCE_FIX = '''
scattering = scattering.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
