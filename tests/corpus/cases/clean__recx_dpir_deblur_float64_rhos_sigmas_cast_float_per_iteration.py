"""DPIR plug-and-play deblurring: float64 `rhos`/`sigmas` tensors on the device, cast with `.float()` at each half-quadratic-splitting step.

Source: https://github.com/cszn/DPIR/blob/master/main_dpir_deblur.py
The script computes the schedules with numpy (`rhos, sigmas = pnp.get_rho_sigma(...)`, float64),
moves them with `torch.tensor(rhos).to(device)`, converts the numpy kernel with
`util.single2tensor4(k)` and the image with `util.single2tensor4(img_L)`, then loops:
`tau = rhos[i].float().repeat(1, 1, 1, 1)`, `x = sr.data_solution(x.float(), FB, FBC, F2B, FBFy, tau, sf)`,
and feeds the denoiser `torch.cat((x, sigmas[i].float().repeat(1, 1, x.shape[2], x.shape[3])), dim=1)`.
Look-alike: float64 tensors beside a float32 model, cast on purpose. Stand-in: a tiny noise-map
denoiser, `p2o` and the FFT data step; meta plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def single2tensor4(img):
    return torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1).float().unsqueeze(0)

def p2o(psf, shape):
    otf = torch.zeros(psf.shape[:-2] + shape).type_as(psf)
    otf[..., : psf.shape[2], : psf.shape[3]].copy_(psf)
    return torch.fft.fftn(otf, dim=(-2, -1))

def data_solution(x, FB, FBC, F2B, FBFy, alpha):
    FR = FBFy + torch.fft.fftn(alpha * x, dim=(-2, -1))
    return torch.real(torch.fft.ifftn(FR / (F2B + alpha), dim=(-2, -1)))

class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 3, 3, padding=1)
    def forward(self, x):
        return self.conv(x)

device = torch.device("meta")          # the script: 'cuda' if available
model = Denoiser().to(device)
iter_num = 4
rhos = np.array([0.5, 0.3, 0.2, 0.1]); sigmas = np.array([0.2, 0.1, 0.05, 0.02])     # float64
rhos, sigmas = torch.tensor(rhos).to(device), torch.tensor(sigmas).to(device)
k = np.ones((5, 5), dtype=np.float64) / 25
img_L = np.random.rand(32, 32, 3).astype(np.float32)
x = single2tensor4(img_L).to(device)
k_tensor = single2tensor4(np.expand_dims(k, 2)).to(device)
FB = p2o(k_tensor, (32, 32)); FBC = torch.conj(FB); F2B = torch.pow(torch.abs(FB), 2)
FBFy = FBC * torch.fft.fftn(x, dim=(-2, -1))
'''
CELL = '''
with torch.no_grad():
    for i in range(iter_num):
        tau = rhos[i].float().repeat(1, 1, 1, 1)
        x = data_solution(x.float(), FB, FBC, F2B, FBFy, tau)
        x = torch.cat((x, sigmas[i].float().repeat(1, 1, x.shape[2], x.shape[3])), dim=1)
        x = model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
