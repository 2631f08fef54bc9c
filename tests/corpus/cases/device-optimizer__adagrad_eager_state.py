"""Adagrad created before `model.to(cuda)`: its eagerly made state stays on the CPU.

Source: https://github.com/lanl/hippynn/pull/15
Adagrad allocates its `sum` state in the constructor, on the parameters' device at that time; the
model was moved to the GPU afterwards (parameters keep their identity, the state does not move),
and the first `optimizer.step()` crashed. Same report: https://github.com/apple/pfl-research/pull/76
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.Adagrad(model.parameters(), lr=1e-2)
model.to("cuda:0")
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
for state in optimizer.state.values():
    state["sum"] = state["sum"].to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
