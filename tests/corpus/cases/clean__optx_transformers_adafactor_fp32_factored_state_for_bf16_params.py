"""Look-alike: transformers' Adafactor on a bfloat16 model keeps its factored second moments and the update in float32.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/optimization.py
`Adafactor.step` up-casts bf16/fp16 gradients and parameters (`grad.float()`,
`p_data_fp32 = p.float()`), keeps `exp_avg_sq_row`/`exp_avg_sq_col` in float32, and writes the
result back with `p.copy_(p_data_fp32)`. float32 optimizer state next to bf16 weights is the
design. Stand-in: the step reduced to the factored, relative-step branch without first moment.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class Adafactor(torch.optim.Optimizer):
    def __init__(self, params, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=-0.8, warmup_init=False):
        super().__init__(params, dict(eps=eps, clip_threshold=clip_threshold, decay_rate=decay_rate,
                                      warmup_init=warmup_init))

    @staticmethod
    def _rms(tensor):
        return tensor.norm(2) / (tensor.numel() ** 0.5)

    @staticmethod
    def _approx_sq_grad(exp_avg_sq_row, exp_avg_sq_col):
        r_factor = (exp_avg_sq_row / exp_avg_sq_row.mean(dim=-1, keepdim=True)).rsqrt_().unsqueeze(-1)
        c_factor = exp_avg_sq_col.unsqueeze(-2).rsqrt()
        return torch.mul(r_factor, c_factor)

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                if grad.dtype in {torch.float16, torch.bfloat16}:
                    grad = grad.float()
                state = self.state[p]
                grad_shape = grad.shape
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg_sq_row"] = torch.zeros(grad_shape[:-1]).to(grad)
                    state["exp_avg_sq_col"] = torch.zeros(grad_shape[:-2] + grad_shape[-1:]).to(grad)
                    state["RMS"] = 0
                p_data_fp32 = p
                if p.dtype in {torch.float16, torch.bfloat16}:
                    p_data_fp32 = p_data_fp32.float()
                state["step"] += 1
                state["RMS"] = self._rms(p_data_fp32)
                lr = min(1e-2, 1.0 / math.sqrt(state["step"])) * max(group["eps"][1], state["RMS"])
                beta2t = 1.0 - math.pow(state["step"], group["decay_rate"])
                update = (grad ** 2) + group["eps"][0]
                state["exp_avg_sq_row"].mul_(beta2t).add_(update.mean(dim=-1), alpha=(1.0 - beta2t))
                state["exp_avg_sq_col"].mul_(beta2t).add_(update.mean(dim=-2), alpha=(1.0 - beta2t))
                update = self._approx_sq_grad(state["exp_avg_sq_row"], state["exp_avg_sq_col"])
                update.mul_(grad)
                update.div_((self._rms(update) / group["clip_threshold"]).clamp_(min=1.0))
                update.mul_(lr)
                p_data_fp32.add_(-update)
                if p.dtype in {torch.float16, torch.bfloat16}:
                    p.copy_(p_data_fp32)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64, bias=False), nn.GELU(), nn.Linear(64, 8, bias=False)).to(torch.bfloat16)
optimizer = Adafactor(model.parameters())
x = torch.randn(16, 32, dtype=torch.bfloat16)
y = torch.randn(16, 8, dtype=torch.bfloat16)
'''
CELL = '''
for _ in range(3):
    optimizer.zero_grad()
    loss = (model(x) - y).float().pow(2).mean()
    loss.backward()
    optimizer.step()
print(loss.item(), optimizer.state[model[0].weight]["exp_avg_sq_row"].dtype, model[0].weight.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
