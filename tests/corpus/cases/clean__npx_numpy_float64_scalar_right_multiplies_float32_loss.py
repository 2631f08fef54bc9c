"""Look-alike: a float32 loss multiplied on the right by a NumPy float64 scalar stays float32 and backpropagates.

Source: https://github.com/pytorch/pytorch/issues/9468
The report's "Trial 1": `prod = tensor * np.float64(2.0)` with a float32 tensor that requires grad
gives a float32 result that still requires grad: the numpy scalar is treated as a Python number,
so it does not promote the tensor to float64. Here the loss weight comes from a numpy schedule
(`np.linspace`, float64) and is applied as `loss * w`; everything stays float32 and the step runs.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
kl_weights = np.linspace(0.0, 1.0, num=10)       # float64 annealing schedule
x = torch.randn(16, 4)
target = torch.randn(16, 1)
step = 3
'''
CELL = '''
w = kl_weights[step]
loss = nn.functional.mse_loss(model(x), target) * w
print(loss.dtype, loss.requires_grad)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
