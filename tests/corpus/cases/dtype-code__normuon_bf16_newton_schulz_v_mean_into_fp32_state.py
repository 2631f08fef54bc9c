"""NorMuon optimizer: the bf16 Newton-Schulz output feeds `lerp_` into the float32 second-moment state.

Source: https://github.com/zichongli5/NorMuon/issues/7
"RuntimeError with bfloat16: dtype mismatch in lerp_()": `optimizer.step()` raised "expected
dtype float for `end` but got dtype c10::BFloat16" from `second_momentum.lerp_(v_mean, 1 - beta2)`
in `normuon_update`: "v_mean is of dtype BF16 but PyTorch expects a FP32 one". The orthogonalized
update comes back in bf16 (`zeropower_via_newtonschulz5` computes in `G.bfloat16()`) while the
state is `torch.zeros_like(p[..., 0:1])` in the parameters' float32. The reporter's fix casts
`v_mean`. Stand-in: SingleDeviceNorMuon and its helpers as in the repository, on a small MLP.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def zeropower_via_newtonschulz5(G, steps=5):
    assert G.ndim >= 2
    a, b, c = (3.4445, -4.7750, 2.0315)
    X = G.bfloat16()
    if G.size(-2) > G.size(-1):
        X = X.mT
    X = X / (X.norm(dim=(-2, -1), keepdim=True) + 1e-7)
    for _ in range(steps):
        A = X @ X.mT
        B = b * A + c * A @ A
        X = a * X + B @ X
    if G.size(-2) > G.size(-1):
        X = X.mT
    return X

def normuon_update(grad, momentum, second_momentum, beta=0.95, beta2=0.95, ns_steps=5, nesterov=True):
    momentum.lerp_(grad, 1 - beta)
    update = grad.lerp_(momentum, beta) if nesterov else momentum
    update = zeropower_via_newtonschulz5(update, steps=ns_steps)
    vnorm = update.norm(dim=(-2, -1), keepdim=True)
    v_mean = torch.mean(update * update, dim=-1, keepdim=True)
    second_momentum.lerp_(v_mean, 1 - beta2)
    step_size = 1 / second_momentum.sqrt().add_(1e-10)
    update.mul_(step_size)
    vnorm_new = update.norm(dim=(-2, -1), keepdim=True)
    update.mul_(vnorm / (vnorm_new.add_(1e-10)))
    update *= max(1, grad.size(-2) / grad.size(-1)) ** 0.5
    return update

class SingleDeviceNorMuon(torch.optim.Optimizer):
    def __init__(self, params, lr=0.02, weight_decay=0, momentum=0.95, beta2=0.95):
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay, momentum=momentum, beta2=beta2))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    p.grad = torch.zeros_like(p)
                state = self.state[p]
                if len(state) == 0:
                    state["momentum_buffer"] = torch.zeros_like(p)
                    state["second_momentum_buffer"] = torch.zeros_like(p[..., 0:1])
                update = normuon_update(p.grad, state["momentum_buffer"], state["second_momentum_buffer"],
                                        beta=group["momentum"], beta2=group["beta2"])
                p.add_(update.reshape(p.shape), alpha=-group["lr"])

model = nn.Sequential(nn.Linear(16, 32, bias=False), nn.ReLU(), nn.Linear(32, 8, bias=False))
optimizer = SingleDeviceNorMuon(list(model.parameters()), lr=0.02)
x, y = torch.randn(4, 16), torch.randn(4, 8)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "expected dtype float for `end` but got dtype c10::BFloat16"
CULPRITS = ["v_mean"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "second_momentum.lerp_(v_mean, 1 - beta2)",
    "second_momentum.lerp_(v_mean.to(second_momentum.dtype), 1 - beta2)",
)
CLEAN = False
