"""Look-alike: Lookahead(Adam) built after `model.to(device)`, its slow weights cloned on the GPU.

Source: https://github.com/lonePatient/lookahead_pytorch/issues/2
The reporter's own resolution: the model had been cast to the GPU after the optimiser was
defined; building the optimiser after the move makes `slow_weights` device copies. An optimizer
holding extra parameter-shaped tensors, all on the parameters' device: nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
model.to(device)
optimizer = Lookahead(torch.optim.SGD(model.parameters(), lr=1e-3), k=1, alpha=0.5)
for p in model.parameters():          # what loss.backward() leaves behind
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
