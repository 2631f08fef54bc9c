"""Adagrad constructed on a Linear's CPU parameters, then `linear.to(device)`: step() fails.

Source: https://github.com/pytorch/pytorch/issues/7321
"Adagrad not working with GPU": `linear = nn.Linear(2, 4)`, `o = optim.Adagrad(linear.parameters())`,
then `linear.to(device)`, `linear(x).mean().backward()`, `o.step()` raised a CPU/CUDA type error.
"Adagrad works correctly if initialized after moving the parameters of the model to the gpu" and
Adam works either way: unlike Adam, Adagrad fills its `sum` state eagerly in `__init__`, on the
parameters' device at that time (still the case in 2.x, see pytorch#76752). Stand-in: the
backward pass (no autograd in this simulation) is replaced by setting the gradients it produces.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn
from torch import optim

device = torch.device("cuda:0")
x = torch.Tensor(10, 2).to(device)
linear = nn.Linear(2, 4)

o = optim.Adagrad(linear.parameters())

linear.to(device)
out = linear(x).mean()
for p in linear.parameters():          # what out.backward() leaves in .grad
    p.grad = torch.ones_like(p)
'''
CELL = '''
o.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["o"]
FIX = "namespace"
REFERENCE_FIX = '''
o = optim.Adagrad(linear.parameters())
'''
REFERENCE_EDIT = None
CLEAN = False
