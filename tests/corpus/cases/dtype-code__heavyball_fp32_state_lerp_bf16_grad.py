"""HeavyBall optimizer on bf16 weights: the float32 state is lerped toward the bf16 gradient.

Source: https://github.com/HomebrewML/HeavyBall/issues/26
"Dtype mismatch in `_compilable_exp_avg_` when using float16/bfloat16 weights": with model weights
in bfloat16, `optimizer.step()` crashed with "expected dtype float for `end` but got dtype
c10::BFloat16" at `lerped = s.lerp(g, 1 - beta)`: HeavyBall keeps its state in fp32 while the
gradients are bf16. The reporter's fix is `s.lerp(g.to(beta.dtype), 1 - beta)`; the maintainer:
"a `promote()` is missing". Stand-in: an Adam-like HeavyBall optimizer with fp32 state, its
`_compilable_exp_avg_` helper and a plain copy back to the bf16 parameter's dtype.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def _compilable_exp_avg_(state, grad, beta):
    for s, g in zip(state, grad):
        lerped = s.lerp(g, 1 - beta)
        s.copy_(lerped)
        g.copy_(lerped)

class ForeachAdamW(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.99), eps=1e-8, storage_dtype=torch.float32):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, storage_dtype=storage_dtype))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            ps = [p for p in group["params"] if p.grad is not None]
            for p in ps:
                if not self.state[p]:
                    self.state[p]["exp_avg"] = torch.zeros_like(p, dtype=group["storage_dtype"])
            exp_avg = [self.state[p]["exp_avg"] for p in ps]
            grads = [p.grad for p in ps]
            beta = torch.tensor(group["betas"][0], dtype=torch.float32)
            _compilable_exp_avg_(exp_avg, grads, beta)
            for p, g in zip(ps, grads):
                p.add_(g.to(p.dtype), alpha=-group["lr"])

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).to(torch.bfloat16)
opt = ForeachAdamW(model.parameters(), lr=1e-3)
x = torch.randn(4, 8, dtype=torch.bfloat16)
loss = model(x).float().pow(2).mean()
loss.backward()
'''
CELL = '''
opt.step()
'''
EXPECT_ERROR = "expected dtype float for `end` but got dtype c10::BFloat16"
CULPRITS = ["opt"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "lerped = s.lerp(g, 1 - beta)",
    "lerped = s.lerp(g.to(beta.dtype), 1 - beta)",
)
CLEAN = False
