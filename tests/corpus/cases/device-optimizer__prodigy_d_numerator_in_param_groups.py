"""Prodigy resumed from a checkpoint: its `d_numerator` lives in param_groups, which load_state_dict never moves.

Source: https://github.com/kozistr/pytorch_optimizer/issues/266
Resuming a Lightning run with pytorch_optimizer's Prodigy failed at the first step with "Expected
all tensors to be on the same device, ... cuda:1 and cpu!" (Lion resumed fine). Prodigy keeps the
running `d_numerator` tensor in `group['d_numerator']`, not in `self.state`: Optimizer.load_state_dict
casts the per-parameter state to the parameters' device but copies param_group values as they are,
so the CPU tensor from the checkpoint stays on the CPU. The maintainer's fix (PR #267) moves
`group['d_numerator']` to the parameters' device. Stand-in: a minimal Prodigy with the pre-fix step.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import math
import torch
from torch import nn

class Prodigy(torch.optim.Optimizer):
    def __init__(self, params, lr=1.0, betas=(0.9, 0.999), d0=1e-6):
        super().__init__(params, dict(lr=lr, betas=betas, d=d0, d0=d0))

    @torch.no_grad()
    def step(self, closure=None):
        group = self.param_groups[0]
        device = group["params"][0].device
        beta1, beta2 = group["betas"]
        beta3 = math.sqrt(beta2)
        d, d0 = group["d"], group["d0"]
        d_lr = d * group["lr"]
        if "d_numerator" not in group:
            group["d_numerator"] = torch.tensor([0.0], device=device)
        d_numerator = group["d_numerator"]
        d_numerator.mul_(beta3)
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            if len(state) == 0:
                state["s"] = torch.zeros_like(p)
                state["p0"] = p.clone()
                state["exp_avg"] = torch.zeros_like(p)
            d_numerator.add_(torch.dot(p.grad.flatten(), (state["p0"] - p).flatten()),
                             alpha=(d / d0) * d_lr)
            state["exp_avg"].mul_(beta1).add_(p.grad, alpha=d * (1.0 - beta1))
            state["s"].mul_(beta3).add_(p.grad, alpha=(d / d0) * d_lr)
            p.add_(state["exp_avg"], alpha=-d_lr)
        group["d_numerator"] = d_numerator
        return None

# the checkpoint, as torch.load(ckpt_path, map_location="cpu") returns it
_trained = nn.Linear(8, 4)
_opt = Prodigy(_trained.parameters())
for _p in _trained.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
checkpoint = {"state_dict": _trained.state_dict(), "optimizer_states": [_opt.state_dict()]}

device = torch.device("cuda:1")
model = nn.Linear(8, 4)
model.load_state_dict(checkpoint["state_dict"])
model.to(device)
optimizer = Prodigy(model.parameters())
optimizer.load_state_dict(checkpoint["optimizer_states"][0])
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in model.parameters():
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
    group["d_numerator"] = group["d_numerator"].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
