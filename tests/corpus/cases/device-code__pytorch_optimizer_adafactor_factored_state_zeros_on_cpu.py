"""pytorch_optimizer AdaFactor on a CUDA model: the factored second-moment rows/cols are created on the CPU.

Source: https://github.com/kozistr/pytorch_optimizer/issues/131
"Adafactor: Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!" raised from `AdaFactor.step` (adafactor.py line 166). The factored state
`exp_avg_sq_row` / `exp_avg_sq_col` was allocated with `torch.zeros(shape, dtype=grad.dtype)`,
without `device=grad.device` (the fixed code passes it), while the unfactored state used
`zeros_like`. Stand-in: the optimizer's step reduced to the factored branch (fixed learning rate, no
parameter scaling), a two-layer model on cuda:0 and stand-in gradients.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class AdaFactor(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), decay_rate=-0.8, eps1=1e-30,
                 clip_threshold=1.0):
        super().__init__(params, dict(lr=lr, betas=betas, decay_rate=decay_rate, eps1=eps1,
                                      clip_threshold=clip_threshold))

    @staticmethod
    def get_options(shape):
        return len(shape) >= 2

    @staticmethod
    def approximate_sq_grad(exp_avg_sq_row, exp_avg_sq_col, output):
        r_factor = (exp_avg_sq_row / exp_avg_sq_row.mean(dim=-1, keepdim=True)).rsqrt_().unsqueeze(-1)
        c_factor = exp_avg_sq_col.unsqueeze(-2).rsqrt()
        torch.mul(r_factor, c_factor, out=output)

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            beta1, _ = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                state = self.state[p]
                grad_shape = grad.shape
                factored = self.get_options(grad_shape)
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    if factored:
                        state["exp_avg_sq_row"] = torch.zeros(grad_shape[:-1], dtype=grad.dtype)
                        state["exp_avg_sq_col"] = torch.zeros(grad_shape[:-2] + grad_shape[-1:], dtype=grad.dtype)
                    else:
                        state["exp_avg_sq"] = torch.zeros_like(grad)
                state["step"] += 1
                beta2_t = 1.0 - math.pow(state["step"], group["decay_rate"])
                update = grad * grad + group["eps1"]
                if factored:
                    exp_avg_sq_row, exp_avg_sq_col = state["exp_avg_sq_row"], state["exp_avg_sq_col"]
                    exp_avg_sq_row.mul_(beta2_t).add_(update.mean(dim=-1), alpha=1.0 - beta2_t)
                    exp_avg_sq_col.mul_(beta2_t).add_(update.mean(dim=-2), alpha=1.0 - beta2_t)
                    self.approximate_sq_grad(exp_avg_sq_row, exp_avg_sq_col, update)
                else:
                    exp_avg_sq = state["exp_avg_sq"]
                    exp_avg_sq.mul_(beta2_t).add_(update, alpha=1.0 - beta2_t)
                    torch.rsqrt(exp_avg_sq, out=update)
                update.mul_(grad)
                exp_avg = state["exp_avg"]
                exp_avg.mul_(beta1).add_(update, alpha=1.0 - beta1)
                p.add_(exp_avg, alpha=-group["lr"])

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to("cuda:0")
optimizer = AdaFactor(model.parameters(), lr=1e-4)
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in model.parameters():
    p.grad = torch.randn_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """state["exp_avg_sq_row"] = torch.zeros(grad_shape[:-1], dtype=grad.dtype)
                        state["exp_avg_sq_col"] = torch.zeros(grad_shape[:-2] + grad_shape[-1:], dtype=grad.dtype)""",
    """state["exp_avg_sq_row"] = torch.zeros(grad_shape[:-1], dtype=grad.dtype, device=grad.device)
                        state["exp_avg_sq_col"] = torch.zeros(grad_shape[:-2] + grad_shape[-1:], dtype=grad.dtype, device=grad.device)""",
)
CLEAN = False
