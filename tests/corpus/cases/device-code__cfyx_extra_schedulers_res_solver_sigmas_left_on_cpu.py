"""webUI_ExtraSchedulers (A1111/Forge extension) RES solver: the webui's sigmas are on the CPU, `ita` is moved to the latent's GPU.

Source: https://github.com/DenOfEquity/webUI_ExtraSchedulers/pull/3
Sampling with the extension's "RES" sampler failed with "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!". In `sample_refined_exp_s` only `ita` was moved
(`ita = ita.to(x.device)`), while the sigmas the webui passes in stay on the CPU, so
`sigma_hat = sigma * (1 + ita)` mixes a CPU one-element sigma with a cuda `ita`. The merged fix adds
`sigmas = sigmas.to(device)` next to the `ita` move (the maintainer: a difference in how A1111 and Forge
set up the sigmas). Stand-in: the extension's res_solver.py sampler loop (same names), a tiny
denoiser in place of the webui's CFG denoiser; the sigma schedule is made on the CPU as the webui does.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn
from itertools import pairwise

def default_noise_sampler(x):
    return lambda sigma, sigma_next: torch.randn_like(x)

def _phi_1(neg_h):
    return torch.nan_to_num(torch.expm1(neg_h) / neg_h, nan=1.0)

def _phi_2(neg_h):
    return torch.nan_to_num((torch.expm1(neg_h) - neg_h) / neg_h**2, nan=0.5)

def _refined_exp_sosu_step(model, x, sigma, sigma_next, c2=0.5, extra_args={}):
    lam_next, lam = (s.log().neg() for s in (sigma_next, sigma))
    h = lam_next - lam
    a2_1 = c2 * _phi_1(-c2 * h)
    phi1, phi2 = _phi_1(-h), _phi_2(-h)
    b1, b2 = phi1 - phi2 / c2, phi2 / c2
    denoised = model(x, sigma, **extra_args)
    c2_h = c2 * h
    x_2 = torch.exp(-c2_h) * x + a2_1 * h * denoised
    sigma_2 = (lam + c2_h).neg().exp()
    denoised2 = model(x_2, sigma_2, **extra_args)
    return torch.exp(-h) * x + h * (b1 * denoised + b2 * denoised2)

@torch.no_grad()
def sample_refined_exp_s(model, x, sigmas, denoise_to_zero=True, extra_args={}, ita=torch.zeros((1,)), c2=.5):
    noise_sampler = default_noise_sampler(x)
    ita = ita.to(x.device)
    sigma_max = sigmas.max()
    for i, (sigma, sigma_next) in enumerate(pairwise(sigmas[:-1].split(1))):
        eps = noise_sampler(sigma, sigma_next).float()
        sigma_hat = sigma * (1 + ita)
        x_hat = x + (sigma_hat ** 2 - sigma ** 2) ** .5 * eps
        x = _refined_exp_sosu_step(model, x_hat, sigma_hat, sigma_next, c2=c2, extra_args=extra_args)
    return x

def sample_res_solver(model, x, sigmas, extra_args=None, ita=torch.Tensor((0.25,)), c2=0.5):
    return sample_refined_exp_s(model, x, sigmas, extra_args=extra_args or {}, ita=ita, c2=c2)

class CFGDenoiser(nn.Module):                  # the webui's k-diffusion wrapped UNet (tiny stand-in)
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
    def forward(self, x, sigma):
        return self.conv(x) * sigma.to(x.device).reshape(-1, 1, 1, 1)

def get_sigmas_karras(n, sigma_min=0.03, sigma_max=14.6, rho=7.0):     # k-diffusion scheduler: CPU
    ramp = torch.linspace(0, 1, n)
    min_inv_rho, max_inv_rho = sigma_min ** (1 / rho), sigma_max ** (1 / rho)
    sigmas = (max_inv_rho + ramp * (min_inv_rho - max_inv_rho)) ** rho
    return torch.cat([sigmas, sigmas.new_zeros([1])])

model_wrap_cfg = CFGDenoiser().to("cuda:0")
x = torch.randn(1, 4, 16, 16, device="cuda:0") * 14.6
sigmas = get_sigmas_karras(10)
'''
CELL = '''
samples = sample_res_solver(model_wrap_cfg, x, sigmas)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sample_refined_exp_s"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    ita = ita.to(x.device)\n", "    ita = ita.to(x.device)\n    sigmas = sigmas.to(x.device)\n")
CLEAN = False
