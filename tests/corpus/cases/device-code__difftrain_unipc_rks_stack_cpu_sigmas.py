"""UniPC multistep update stacks `rks` built from the CPU-kept sigmas with a GPU `ones`.

Source: https://github.com/NVIDIA/TensorRT-LLM/pull/13017
The VBench tests of a Wan video pipeline failed with "Expected all tensors to be on the same
device" in `UniPCMultistepScheduler.multistep_uni_p_bh_update`: a diffusers change replaced
`rks.append(1.0); rks = torch.tensor(rks, device=device)` by `rks.append(torch.ones((), device=device));
rks = torch.stack(rks)`, but the other `rks` entries come from `self.sigmas`, which the scheduler keeps
on the CPU on purpose. The old code (coerce the whole list onto the sample's device) is the fix.
Stand-in: the UniPC predictor step reduced to the `rks`/`D1s` part (bh2 variant); meta as the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch

class UniPCMultistepScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
        betas = torch.linspace(beta_start ** 0.5, beta_end ** 0.5, num_train_timesteps) ** 2
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.sigmas = ((1 - alphas_cumprod) / alphas_cumprod) ** 0.5
        self.sigmas = self.sigmas.to("cpu")  # to avoid too much CPU/GPU communication
        self.step_index = 10
        self.model_outputs = []

    def _sigma_to_alpha_sigma_t(self, sigma):
        alpha_t = 1 / ((sigma ** 2 + 1) ** 0.5)
        sigma_t = sigma * alpha_t
        return alpha_t, sigma_t

    def multistep_uni_p_bh_update(self, model_output, sample, order):
        model_output_list = self.model_outputs
        m0 = model_output_list[-1]
        x = sample
        sigma_t, sigma_s0 = self.sigmas[self.step_index + 1], self.sigmas[self.step_index]
        alpha_t, sigma_t = self._sigma_to_alpha_sigma_t(sigma_t)
        alpha_s0, sigma_s0 = self._sigma_to_alpha_sigma_t(sigma_s0)
        lambda_t = torch.log(alpha_t) - torch.log(sigma_t)
        lambda_s0 = torch.log(alpha_s0) - torch.log(sigma_s0)
        h = lambda_t - lambda_s0
        device = sample.device

        rks = []
        D1s = []
        for i in range(1, order):
            si = self.step_index - i
            mi = model_output_list[-(i + 1)]
            alpha_si, sigma_si = self._sigma_to_alpha_sigma_t(self.sigmas[si])
            lambda_si = torch.log(alpha_si) - torch.log(sigma_si)
            rk = (lambda_si - lambda_s0) / h
            rks.append(rk)
            D1s.append((mi - m0) / rk)

        rks.append(torch.ones((), device=device))
        rks = torch.stack(rks)

        hh = -h
        h_phi_1 = torch.expm1(hh)
        B_h = torch.expm1(hh)
        R = []
        b = []
        factorial_i = 1
        h_phi_k = h_phi_1 / hh - 1
        for i in range(1, order + 1):
            R.append(torch.pow(rks, i - 1))
            b.append(h_phi_k * factorial_i / B_h)
            factorial_i *= i + 1
            h_phi_k = h_phi_k / hh - 1 / factorial_i
        x_t_ = sigma_t / sigma_s0 * x - alpha_t * h_phi_1 * m0
        return x_t_

device = torch.device("meta")          # the GPU, simulated with meta
scheduler = UniPCMultistepScheduler()
latents = torch.randn(1, 16, 4, 8, 8, device=device)
scheduler.model_outputs = [torch.randn(1, 16, 4, 8, 8, device=device) for _ in range(2)]
noise_pred = scheduler.model_outputs[-1]
'''
CELL = '''
latents = scheduler.multistep_uni_p_bh_update(noise_pred, latents, order=2)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["scheduler.sigmas"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        rks.append(torch.ones((), device=device))
        rks = torch.stack(rks)""", """        rks.append(1.0)
        rks = torch.tensor(rks, device=device)""")
CLEAN = False
