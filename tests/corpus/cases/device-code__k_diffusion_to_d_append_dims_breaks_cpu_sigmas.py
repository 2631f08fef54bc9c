"""k-diffusion sample_euler with the sigmas kept on the CPU: `to_d` turns the 0-dim CPU sigma into a 4-d CPU tensor.

Source: https://github.com/crowsonkb/k-diffusion/pull/109
Keeping `sigmas` on the CPU (so the sampling loop's control flow does not force a GPU sync, issue
108) fails in the samplers: `sigma_hat * s_in` is fine (a 0-dim CPU tensor mixes with device
tensors), but `to_d(x, sigma, denoised)` divides by `utils.append_dims(sigma, x.ndim)`, a
(1, 1, 1, 1) CPU tensor, which no longer counts as a scalar. The PR changes that one operation to a
plain scalar division. Stand-in: k-diffusion's `append_dims`, `to_d`, `sample_euler` and a small
denoiser wrapper; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

device = torch.device("meta")                    # the GPU, simulated with meta

def append_dims(x, target_dims):
    dims_to_append = target_dims - x.ndim
    if dims_to_append < 0:
        raise ValueError(f"input has {x.ndim} dims but target_dims is {target_dims}, which is less")
    return x[(...,) + (None,) * dims_to_append]

def to_d(x, sigma, denoised):
    """Converts a denoiser output to a Karras ODE derivative."""
    return (x - denoised) / append_dims(sigma, x.ndim)

def get_sigmas_karras(n, sigma_min, sigma_max, rho=7., device="cpu"):
    ramp = torch.linspace(0, 1, n, device=device)
    min_inv_rho, max_inv_rho = sigma_min ** (1 / rho), sigma_max ** (1 / rho)
    sigmas = (max_inv_rho + ramp * (min_inv_rho - max_inv_rho)) ** rho
    return torch.cat([sigmas, sigmas.new_zeros([1])])

@torch.no_grad()
def sample_euler(model, x, sigmas, extra_args=None, s_churn=0., s_tmin=0., s_tmax=float("inf"), s_noise=1.):
    extra_args = {} if extra_args is None else extra_args
    s_in = x.new_ones([x.shape[0]])
    for i in range(len(sigmas) - 1):
        gamma = min(s_churn / (len(sigmas) - 1), 2 ** 0.5 - 1) if s_tmin <= sigmas[i] <= s_tmax else 0.
        sigma_hat = sigmas[i] * (gamma + 1)
        denoised = model(x, sigma_hat * s_in, **extra_args)
        d = to_d(x, sigma_hat, denoised)
        dt = sigmas[i + 1] - sigma_hat
        x = x + d * dt
    return x

class CompVisDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner_model = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, input, sigma):
        c_in = 1 / (sigma ** 2 + 1) ** 0.5
        eps = self.inner_model(input * c_in[:, None, None, None])
        return input - eps * sigma[:, None, None, None]

model_wrap = CompVisDenoiser().to(device)
sigmas = get_sigmas_karras(8, 0.0292, 14.6146, device="cpu")     # kept on the CPU on purpose
x = torch.randn(1, 4, 16, 16, device=device) * sigmas[0]
'''
CELL = '''
samples = sample_euler(model_wrap, x, sigmas)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["sigmas"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return (x - denoised) / append_dims(sigma, x.ndim)", "return (x - denoised) / sigma")
CLEAN = False
