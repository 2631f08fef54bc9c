"""Look-alike: AUTOMATIC1111 keeps the k-diffusion sigmas on the CPU on purpose; every use is a 0-dim scalar.

Source: https://github.com/AUTOMATIC1111/stable-diffusion-webui/pull/15823
"[Performance] Keep sigmas on CPU": the sampling schedule is built on the CPU so that the samplers'
control flow (`s_tmin <= sigmas[i] <= s_tmax`, step sizes) does not force a device sync each step;
"it is completely safe to have the sigmas tensor on the CPU ... because the sigmas are only used for
control flow and scalar operations", with k-diffusion's `to_d` patched to divide by the 0-dim sigma.
The latents and the model are on the GPU; CPU 0-dim tensors mix with them legally. Simulated with
meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

device = torch.device("meta")                    # the GPU, simulated with meta

def to_d(x, sigma, denoised):
    """Converts a denoiser output to a Karras ODE derivative (sigma: a 0-dim tensor)."""
    return (x - denoised) / sigma

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

class CFGDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner_model = nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x, sigma, cond_scale=7.0):
        c_in = 1 / (sigma ** 2 + 1) ** 0.5
        eps = self.inner_model(x * c_in[:, None, None, None])
        return x - eps * sigma[:, None, None, None]

model_wrap_cfg = CFGDenoiser().to(device)
sigmas = get_sigmas_karras(8, 0.0292, 14.6146, device="cpu")     # KDiffusionSampler.get_sigmas(...).cpu()
x = torch.randn(1, 4, 16, 16, device=device) * sigmas[0]
'''
CELL = '''
samples = sample_euler(model_wrap_cfg, x, sigmas, extra_args={"cond_scale": 7.0})
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
