"""MADGRAD created before the model is moved to the GPU: its state is allocated in `__init__`, on the CPU.

Source: https://github.com/facebookresearch/madgrad/issues/4
"Bug with state initialization ... because the gradients are on the GPU and the states are
initialized on the CPU, there is an error coming because of tensors on two different devices."
MADGRAD 1.0 filled `grad_sum_sq`, `s` and `x0` with `zeros_like`/`clone` of each parameter in its
constructor, so an optimizer built (here by the user, in the report by fastai) while the model was
still on the CPU kept CPU state after `model.to(device)`. The author moved the initialization into
`step` (PR #5); building the optimizer after the move is the user-side fix. Stand-in: MADGRAD 1.0's
constructor and step (sparse branch dropped); the gradients are what backward leaves.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import math
import torch
from torch import nn

class MADGRAD(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2, momentum=0.9, weight_decay=0, eps=1e-6):
        defaults = dict(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, k=0)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["grad_sum_sq"] = torch.zeros_like(p.data).detach()
                state["s"] = torch.zeros_like(p.data).detach()
                if momentum != 0:
                    state["x0"] = torch.clone(p.data).detach()

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            eps, k, decay, momentum = group["eps"], group["k"], group["weight_decay"], group["momentum"]
            lr = group["lr"] + eps
            ck = 1 - momentum
            lamb = lr * math.pow(k + 1, 0.5)
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad.data
                state = self.state[p]
                grad_sum_sq, s = state["grad_sum_sq"], state["s"]
                if decay != 0:
                    grad.add_(p.data, alpha=decay)
                if momentum == 0:
                    rms = grad_sum_sq.pow(1 / 3).add_(eps)
                    x0 = p.data.addcdiv(s, rms, value=1)
                else:
                    x0 = state["x0"]
                grad_sum_sq.addcmul_(grad, grad, value=lamb)
                rms = grad_sum_sq.pow(1 / 3).add_(eps)
                s.data.add_(grad, alpha=lamb)
                if momentum == 0:
                    p.data.copy_(x0.addcdiv(s, rms, value=-1))
                else:
                    z = x0.addcdiv(s, rms, value=-1)
                    p.data.mul_(1 - ck).add_(z, alpha=ck)
            group["k"] = group["k"] + 1

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
optimizer = MADGRAD(model.parameters(), lr=1e-3)
model.to(device)
for p in model.parameters():          # what loss.backward() leaves behind
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
optimizer = MADGRAD(model.parameters(), lr=1e-3)
'''
REFERENCE_EDIT = None
CLEAN = False
