"""Nero optimizer built before `net.cuda()`: its per-neuron state was initialised on the CPU.

Source: https://github.com/jxbz/nero/issues/1
`state['exp_avg_sq'] = self.beta * state['exp_avg_sq'] + (1-self.beta) * neuron_norm(p.grad)**2`
raised "found at least two devices, cuda:0 and cpu!". The author: "could you check that you moved
the neural net to GPU before you create the optimiser? ... The optimiser init function assumes all
tensors are already on the device they will be trained on." Nero fills its state in `__init__`.
Stand-in: Nero reduced to its state and update; the gradients are what backward leaves.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn
from torch.optim.optimizer import Optimizer

def neuron_norm(x):
    if x.dim() > 1:
        view_shape = [x.shape[0]] + [1] * (x.dim() - 1)
        return x.view(x.shape[0], -1).norm(dim=1).view(*view_shape)
    return x.abs()

class Nero(Optimizer):
    def __init__(self, params, lr=0.01, beta=0.999):
        self.beta = beta
        super().__init__(params, dict(lr=lr))
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = 0
                state["exp_avg_sq"] = torch.zeros_like(neuron_norm(p))
                state["scale"] = neuron_norm(p).mean()

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                state["step"] += 1
                state["exp_avg_sq"] = self.beta * state["exp_avg_sq"] \\
                    + (1 - self.beta) * neuron_norm(p.grad) ** 2
                grad_normed = p.grad / (state["exp_avg_sq"] / (1 - self.beta ** state["step"])).sqrt()
                p.sub_(group["lr"] * state["scale"] * grad_normed)

device = torch.device("cuda:0")
net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
optimizer = Nero(net.parameters(), lr=0.01)
net = net.to(device)           # net.cuda()
for p in net.parameters():          # what loss.backward() leaves behind
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
optimizer = Nero(net.parameters(), lr=0.01)
'''
REFERENCE_EDIT = None
CLEAN = False
