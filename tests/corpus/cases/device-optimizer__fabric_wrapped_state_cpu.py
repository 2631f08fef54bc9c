"""AdamW stepped on the CPU, then `fabric.setup(model, optimizer)`: the wrapped state stays behind.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/19225
`Fabric.setup` moves the model to the accelerator and wraps model and optimizer, but does not move
optimizer state that already exists ("state device after setup: cpu"); the next step fails.
Stand-in: a minimal Fabric with the same moves and wrappers (the optimizer inside a wrapper that
is not a `torch.optim.Optimizer`).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class FabricOptimizer:
    def __init__(self, optimizer):
        self.optimizer = optimizer

    def step(self):
        return self.optimizer.step()

class FabricModule(nn.Module):
    def __init__(self, module):
        super().__init__()
        self._forward_module = module

    def forward(self, *args):
        return self._forward_module(*args)

class Fabric:
    device = torch.device("cuda:0")

    def setup(self, model, optimizer):
        model.to(self.device)
        return FabricModule(model), FabricOptimizer(optimizer)

m = nn.Linear(10, 1)
optimizer = torch.optim.AdamW(m.parameters())
m.weight.grad, m.bias.grad = torch.ones_like(m.weight), torch.ones_like(m.bias)
optimizer.step()

fabric = Fabric()
m, optimizer = fabric.setup(m, optimizer)
# stand-in for fabric.backward(loss) (fake cuda tensors cannot run autograd)
for p in m.parameters():
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to(fabric.device)
'''
REFERENCE_EDIT = None
CLEAN = False
