"""deepinv BlurFFT built on the GPU, then `physics.update(filter=...)` with a CPU filter: the FFT mask stays on the CPU.

Source: https://github.com/deepinv/deepinv/issues/682
The user built `physics = dinv.physics.BlurFFT(x.shape[1:], filter=filter, device=device)` on cuda,
ran `y = physics(x)` fine, then called `physics.update(filter=filter)` with the CPU gaussian filter
and the next `physics(x)` failed in `A` at `self.mask * self.V_adjoint(x)`. `update_parameters`
recomputes the Fourier mask from the given filter on the filter's device instead of the physics'
device; the workaround is to pass the filter on the physics' device. Stand-in: a reduced BlurFFT
(rfft2 of the padded filter kept as a plain `mask` attribute) and `gaussian_blur`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

def gaussian_blur(sigma=(1.0, 1.0)):
    s = max(sigma)
    c = int(2 * s)
    t = torch.arange(-c, c + 1, dtype=torch.float32)
    g = torch.exp(-t[:, None] ** 2 / (2 * sigma[0] ** 2) - t[None, :] ** 2 / (2 * sigma[1] ** 2))
    return (g / g.sum())[None, None]

class BlurFFT(torch.nn.Module):
    def __init__(self, img_size, filter=None, device="cpu"):
        super().__init__()
        self.img_size = img_size
        self.update_parameters(filter=filter.to(device))

    def update_parameters(self, filter=None, **kwargs):
        if filter is not None:
            H, W = self.img_size[-2:]
            self.mask = torch.fft.rfft2(filter, s=(H, W))      # on the filter's device

    def update(self, **kwargs):
        self.update_parameters(**kwargs)

    def V_adjoint(self, x):
        return torch.fft.rfft2(x)

    def U(self, x):
        return torch.fft.irfft2(x, s=self.img_size[-2:])

    def A(self, x):
        return self.U(self.mask * self.V_adjoint(x))

    def forward(self, x):
        return self.A(x)

device = "cuda:0"
x = torch.rand((1, 3, 64, 64), device=device)
filter = gaussian_blur((3, 3))
physics = BlurFFT(x.shape[1:], filter=filter, device=device)
y = physics(x)
physics.update(filter=filter)       # GPU physics updated with the CPU filter
'''
CELL = '''
y = physics(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["physics"]
FIX = "namespace"
REFERENCE_FIX = '''
physics.update(filter=filter.to(device))
'''
REFERENCE_EDIT = None
CLEAN = False
