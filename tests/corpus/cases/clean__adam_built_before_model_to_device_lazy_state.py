"""Adam constructed before `model.to(device)`: its state is created lazily, on the parameters' device.

Source: https://github.com/pytorch/pytorch/issues/76752
"Misleading statement in optim.Optimizer docs": the docs said to move the model to the GPU before
constructing the optimizer; albanD noted this is no longer needed - `Module.to()` keeps the same
Parameter objects, and optimizers such as Adam create their state at the first `step()` on the
parameters' current device (Adagrad, which allocates state in its constructor, is the exception
mentioned in the thread). Look-alike: an optimizer built from CPU parameters that are on cuda by the
time it steps.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

device = torch.device("cuda:0")
l = torch.nn.Linear(3, 3)
o = torch.optim.Adam(l.parameters(), lr=0.1)
l.to(device)
o.zero_grad()
for p in l.parameters():          # stand-in for l(torch.randn(1, 3).to(device)).sum().backward()
    p.grad = torch.ones_like(p)
'''
CELL = '''
o.step()
out = l(torch.randn(1, 3).to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
