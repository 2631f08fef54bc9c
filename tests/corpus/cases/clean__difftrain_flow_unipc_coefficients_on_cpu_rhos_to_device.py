"""Look-alike: FlowUniPC keeps its scalar coefficient chain on the CPU and only moves `rhos_p` for the einsum.

Source: https://github.com/vllm-project/vllm-omni/pull/5971
The PR drops the `.to(device)` at every sigma read of `FlowUniPCMultistepScheduler`: `self.sigmas` is a
CPU float32 tensor, so `log`, `expm1`, `pow` and the small solve run on the CPU as 0-dim tensors
("a 0-dim CPU tensor broadcasts as a scalar against a CUDA tensor, so the large tensors never move"),
while `rhos_p` still goes to the device because the `einsum` with the GPU `D1s` consumes it. Runs; no
finding expected. Stand-in: the order-2 predictor of the flow-matching UniPC step; GPU simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class FlowUniPCMultistepScheduler:
    def __init__(self, num_train_timesteps=1000, shift=5.0, num_inference_steps=10):
        sigmas = torch.linspace(1.0, 1.0 / num_train_timesteps, num_inference_steps)
        sigmas = shift * sigmas / (1 + (shift - 1) * sigmas)
        self.sigmas = torch.cat([sigmas, torch.zeros(1)]).to(torch.float32)   # stays on the CPU
        self.step_index = 3

    def _sigma_to_alpha_sigma_t(self, sigma):
        return 1 - sigma, sigma

    def multistep_uni_p_bh_update(self, model_output_list, sample):
        m0 = model_output_list[-1]
        sigma_t, sigma_s0 = self.sigmas[self.step_index + 1], self.sigmas[self.step_index]
        alpha_t, sigma_t = self._sigma_to_alpha_sigma_t(sigma_t)
        alpha_s0, sigma_s0 = self._sigma_to_alpha_sigma_t(sigma_s0)
        lambda_t = torch.log(alpha_t) - torch.log(sigma_t)
        lambda_s0 = torch.log(alpha_s0) - torch.log(sigma_s0)
        h = lambda_t - lambda_s0
        si = self.step_index - 1
        alpha_si, sigma_si = self._sigma_to_alpha_sigma_t(self.sigmas[si])
        lambda_si = torch.log(alpha_si) - torch.log(sigma_si)
        rk = (lambda_si - lambda_s0) / h
        D1s = torch.stack([(model_output_list[-2] - m0) / rk], dim=1)
        hh = -h
        h_phi_1 = torch.expm1(hh)
        B_h = torch.expm1(hh)
        rhos_p = torch.tensor([0.5], dtype=sample.dtype, device=sample.device)
        x_t_ = sigma_t / sigma_s0 * sample - alpha_t * h_phi_1 * m0
        pred_res = torch.einsum("k,bkc...->bc...", rhos_p, D1s)
        return x_t_ - alpha_t * B_h * pred_res

device = torch.device("cuda:0")
scheduler = FlowUniPCMultistepScheduler()
latents = torch.randn(1, 16, 2, 8, 8).to(device)
model_outputs = [torch.randn(1, 16, 2, 8, 8).to(device) for _ in range(2)]
'''
CELL = '''
latents = scheduler.multistep_uni_p_bh_update(model_outputs, latents)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
