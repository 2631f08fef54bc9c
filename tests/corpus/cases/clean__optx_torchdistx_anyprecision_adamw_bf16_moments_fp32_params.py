"""Look-alike: torchdistx's AnyPrecisionAdamW keeps momentum and variance in bfloat16 for a float32 model.

Source: https://github.com/pytorch/torchdistx/blob/main/src/python/torchdistx/optimizers/anyprecision_optimizer.py
`momentum_dtype` and `variance_dtype` default to bfloat16 independently of the parameters (the
author: "There's no linkage at all between the model/param dtypes and the optimizer states
dtypes"); the float32 gradient is added in place into the bf16 moments, and the bf16 moments
update the float32 parameters. Mixed dtypes by design. Stand-in: the step without Kahan
summation, CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class AnyPrecisionAdamW(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 momentum_dtype=torch.bfloat16, variance_dtype=torch.bfloat16):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_dtype=momentum_dtype, variance_dtype=variance_dtype))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.tensor(0.0)
                    state["exp_avg"] = torch.zeros_like(p, dtype=group["momentum_dtype"])
                    state["exp_avg_sq"] = torch.zeros_like(p, dtype=group["variance_dtype"])
                state["step"] += 1
                step = state["step"]
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                if group["weight_decay"]:
                    p.data.mul_(1 - group["lr"] * group["weight_decay"])
                exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction1 = 1 - beta1 ** step
                step_size = group["lr"] / bias_correction1
                denom_correction = (1 - beta2 ** step) ** 0.5
                centered_variance = (exp_avg_sq.sqrt() / denom_correction).add_(group["eps"])
                p.data.addcdiv_(exp_avg, centered_variance, value=-step_size)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
optimizer = AnyPrecisionAdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
x = torch.randn(32, 20)
y = torch.randint(0, 3, (32,))
'''
CELL = '''
for _ in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
st = optimizer.state[model[0].weight]
print(loss.item(), st["exp_avg"].dtype, model[0].weight.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
