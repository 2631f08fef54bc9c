"""NorMuon on a bfloat16 model: the Newton-Schulz output is cast with `.float()` and lerped into a bf16 buffer.

Source: https://github.com/zichongli5/NorMuon/pull/4
"This float() breaks training in bf16": `normuon_update` ended with
`update = zeropower_via_newtonschulz5(update, steps=ns_steps).float()`, so `v_mean` is float32
while `second_momentum_buffer` (made with `zeros_like` of the bf16 parameter) is bf16, and
`second_momentum.lerp_(v_mean, 1 - beta2)` raises "expected dtype c10::BFloat16 for `end` but got
dtype float". The PR drops the `.float()`. Stand-in: the single-device NorMuon step and a bf16
two-layer MLP trained on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def zeropower_via_newtonschulz5(G, steps):
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
    update = zeropower_via_newtonschulz5(update, steps=ns_steps).float()
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
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["momentum_buffer"] = torch.zeros_like(p)
                    state["second_momentum_buffer"] = torch.zeros_like(p[..., 0:1])
                update = normuon_update(p.grad, state["momentum_buffer"], state["second_momentum_buffer"],
                                        beta=group["momentum"], beta2=group["beta2"])
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.add_(update.reshape(p.shape), alpha=-group["lr"])

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64, bias=False), nn.ReLU(), nn.Linear(64, 32, bias=False)).to(torch.bfloat16)
optimizer = SingleDeviceNorMuon(model.parameters(), lr=0.02)
x = torch.randn(8, 32, dtype=torch.bfloat16)
y = torch.randn(8, 32, dtype=torch.bfloat16)
'''
CELL = '''
optimizer.zero_grad()
loss = (model(x) - y).float().pow(2).mean()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "expected dtype"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "update = zeropower_via_newtonschulz5(update, steps=ns_steps).float()",
    "update = zeropower_via_newtonschulz5(update, steps=ns_steps)",
)
CLEAN = False
