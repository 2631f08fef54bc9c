"""michaelrzhang/lookahead: the Lookahead wrapper copies `cached_params` in `__init__`, before the model is moved to the GPU.

Source: https://github.com/michaelrzhang/lookahead/pull/8
The user hit "Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu!" at the slow-weight update of `lookahead_pytorch.py` and fixed it by moving
`param_state['cached_params']` to the device in use. The wrapper fills `cached_params` with
`torch.zeros_like(p.data).copy_(p.data)` when it is built; here it is built around Adam before
`model.to(device)`, so the parameters move (in place) but the cached copies stay on the CPU.
Stand-in: the wrapper reduced to its `__init__`/`step` (the in-step refresh of the cache is written
as a clone, since fake cuda tensors cannot be copied); gradients are what backward leaves.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
from collections import defaultdict
import torch
from torch import nn
from torch.optim.optimizer import Optimizer

class Lookahead(Optimizer):
    def __init__(self, optimizer, la_steps=5, la_alpha=0.8, pullback_momentum="none"):
        self.optimizer = optimizer
        self._la_step = 0
        self.la_alpha = la_alpha
        self._total_la_steps = la_steps
        self.pullback_momentum = pullback_momentum
        self.state = defaultdict(dict)
        for group in optimizer.param_groups:
            for p in group["params"]:
                param_state = self.state[p]
                param_state["cached_params"] = torch.zeros_like(p.data)
                param_state["cached_params"].copy_(p.data)

    @property
    def param_groups(self):
        return self.optimizer.param_groups

    def zero_grad(self, set_to_none=True):
        self.optimizer.zero_grad(set_to_none=set_to_none)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self.optimizer.step(closure)
        self._la_step += 1
        if self._la_step >= self._total_la_steps:
            self._la_step = 0
            for group in self.optimizer.param_groups:
                for p in group["params"]:
                    param_state = self.state[p]
                    p.mul_(self.la_alpha).add_(param_state["cached_params"], alpha=1.0 - self.la_alpha)
                    param_state["cached_params"] = p.detach().clone()   # upstream: .copy_(p.data)
        return loss

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
base_optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer = Lookahead(base_optimizer, la_steps=5, la_alpha=0.8)
model.to(device)

def train_step(x):
    optimizer.zero_grad()
    out = model(x)
    for p in model.parameters():      # stand-in for criterion(out, y).backward()
        p.grad = torch.ones_like(p)
    optimizer.step()
    return out

x = torch.randn(16, 20, device=device)
'''
CELL = '''
for it in range(5):
    out = train_step(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for p, st in optimizer.state.items():
    st["cached_params"] = p.detach().clone()
'''
REFERENCE_EDIT = None
CLEAN = False
