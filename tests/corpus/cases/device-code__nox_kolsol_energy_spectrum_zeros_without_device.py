"""KolSol's PyTorch Kolmogorov-flow solver on a GPU: `energy_spectrum` allocates its shell accumulator with `torch.zeros` on the CPU.

Source: https://github.com/MagriLab/KolSol/issues/107
"When using the PyTorch solver and CPU only, the energy spectrum works correctly. However, when running
on GPU there is a device mismatch: RuntimeError: Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu!" `KolSol(..., device=...)` builds its wavenumber grids on
`self.device`, and the flow field is on the GPU, but `energy_spectrum` creates
`ek = torch.zeros(leading_dims + (kmax + 1,))` without a device before accumulating the on-device
energies into it. The fix (PR #108) passes `device=self.device` to that `torch.zeros`. Stand-ins: the
solver's grids reduced to `kk`; the per-mode accumulation loop is written as one `index_add_` over the
flattened modes (same shells), and the number of shells comes from `nk` (equal to `max(intk) + 1`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch

class KolSol:
    """Stand-in for kolsol.torch.solver.KolSol (wavenumber grid + energy spectrum)."""
    def __init__(self, nk, nf, re, ndim=2, device=torch.device("cpu")):
        self.nk, self.nf, self.re, self.ndim = nk, nf, re, ndim
        self.nk_grid = 2 * nk + 1
        self.device = device
        k = torch.fft.fftshift(torch.fft.fftfreq(self.nk_grid, 1 / self.nk_grid)).to(self.device)
        self.kt = torch.stack(torch.meshgrid(*(k for _ in range(self.ndim)), indexing="ij"), dim=-1)
        self.kk = torch.sum(torch.pow(self.kt, 2), dim=-1)

    def energy_spectrum(self, u_hat, agg=False):
        n_leading_dims = u_hat.ndim - (self.ndim + 1)
        leading_dims = u_hat.shape[:n_leading_dims]

        uu = 0.5 * torch.sum(u_hat * torch.conj(u_hat), dim=-1).real
        intk = torch.sqrt(self.kk).to(torch.int64)
        n_shells = int(np.sqrt(self.ndim) * self.nk) + 1          # == torch.max(intk) + 1

        ek = torch.zeros((tuple([*leading_dims]) + tuple([n_shells])))
        ek.index_add_(-1, intk.flatten(), uu.flatten(start_dim=n_leading_dims) / self.nk_grid ** self.ndim)

        if agg:
            ek = ek.mean(dim=tuple(range(n_leading_dims)))
        return ek

device = torch.device("cuda:0")
ks = KolSol(nk=8, nf=4, re=30.0, ndim=2, device=device)
# a batch of 5 velocity fields in the Fourier domain, [t, kx, ky, u]
u_hat = torch.randn(5, ks.nk_grid, ks.nk_grid, 2, dtype=torch.complex64, device=device)
'''
CELL = '''
ek = ks.energy_spectrum(u_hat, agg=True)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected to be in the same device",
                "is not on the expected device")
CULPRITS = ["ks"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ek = torch.zeros((tuple([*leading_dims]) + tuple([n_shells])))",
                  "ek = torch.zeros((tuple([*leading_dims]) + tuple([n_shells])), device=self.device)")
CLEAN = False
