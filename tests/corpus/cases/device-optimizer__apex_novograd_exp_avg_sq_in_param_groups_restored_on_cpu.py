"""apex FusedNovoGrad resumed from a CPU-mapped checkpoint: `exp_avg_sq` lives in the param groups.

Source: https://github.com/NVIDIA/apex/pull/459
NovoGrad keeps its per-layer second moments `exp_avg_sq` in `group['exp_avg_sq']`, not in
`optimizer.state`; `Optimizer.load_state_dict()` casts only the per-parameter state to the
parameters' device, so after `torch.load(..., map_location="cpu")` the norms stayed on the CPU and
the next `step()` mixed them with the cuda gradients. The PR overrides `load_state_dict` to move
`exp_avg_sq` to the parameters' device. Stand-in: a pure-PyTorch NovoGrad with the same layout.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class FusedNovoGrad(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.95, 0.98), eps=1e-8, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            params = [p for p in group["params"] if p.grad is not None]
            norms = torch.stack([p.grad.norm() ** 2 for p in params])
            if "exp_avg_sq" not in group:
                group["exp_avg_sq"] = norms.clone()
            else:
                group["exp_avg_sq"].mul_(beta2).add_(norms, alpha=1 - beta2)
            denom = (group["exp_avg_sq"].sqrt() + group["eps"]).unbind(0)
            for i, p in enumerate(params):
                state = self.state[p]
                if "exp_avg" not in state:
                    state["exp_avg"] = torch.zeros_like(p)
                g = p.grad / denom[i] + group["weight_decay"] * p
                state["exp_avg"].mul_(beta1).add_(g)
                p.add_(state["exp_avg"], alpha=-group["lr"])

def make_model():
    return nn.Sequential(nn.Linear(80, 256), nn.ReLU(), nn.Linear(256, 29))   # a Jasper-ish head

# the checkpoint written during training, as torch.load(path, map_location="cpu") returns it
_m = make_model()
_opt = FusedNovoGrad(_m.parameters(), lr=0.01)
for _p in _m.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step(); _opt.step()
checkpoint = {"state_dict": _m.state_dict(), "optimizer": _opt.state_dict()}

device = torch.device("cuda:0")
model = make_model()
model.load_state_dict(checkpoint["state_dict"])
model.to(device)
optimizer = FusedNovoGrad(model.parameters(), lr=0.01)
optimizer.load_state_dict(checkpoint["optimizer"])
for p in model.parameters():            # stand-in for loss.backward()
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for group in optimizer.param_groups:
    if "exp_avg_sq" in group:
        group["exp_avg_sq"] = group["exp_avg_sq"].to(group["params"][0].device)
'''
REFERENCE_EDIT = None
CLEAN = False
