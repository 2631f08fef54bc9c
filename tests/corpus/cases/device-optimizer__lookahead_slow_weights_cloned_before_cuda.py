"""Lookahead wrapped around Adam before `model.to(device)`: its slow weights are CPU clones.

Source: https://github.com/lonePatient/lookahead_pytorch/issues/2
"Cuda Error under self.alpha, p.data - q.data": wrapping Adam/RAdam in `Lookahead(base_optimizer,
k=5, alpha=0.5)` failed on the GPU with "expected device cuda:0 ... but got device cpu". The user
then found they had moved the model to the GPU after building the optimizer: Lookahead clones
`self.slow_weights` from the parameters in `__init__`, so the clones stayed on the CPU.
Stand-in: the same Lookahead; the backward pass is represented by the gradients it leaves.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn
from torch.optim import Optimizer

class Lookahead(Optimizer):
    def __init__(self, base_optimizer, alpha=0.5, k=5):
        self.optimizer = base_optimizer
        self.param_groups = self.optimizer.param_groups
        self.alpha, self.k = alpha, k
        self.state = base_optimizer.state
        self.defaults = base_optimizer.defaults
        for group in self.param_groups:
            group["step_counter"] = 0
        self.slow_weights = [[p.clone().detach() for p in group["params"]]
                             for group in self.param_groups]

    def step(self, closure=None):
        loss = self.optimizer.step(closure)
        for group, slow_weights in zip(self.param_groups, self.slow_weights):
            group["step_counter"] += 1
            if group["step_counter"] % self.k != 0:
                continue
            for p, q in zip(group["params"], slow_weights):
                if p.grad is None:
                    continue
                q.data.add_(p.data - q.data, alpha=self.alpha)
                p.data = q.data.clone()
        return loss

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
base_optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
optimizer = Lookahead(base_optimizer, k=1, alpha=0.5)
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
base_optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
optimizer = Lookahead(base_optimizer, k=1, alpha=0.5)
'''
REFERENCE_EDIT = None
CLEAN = False
