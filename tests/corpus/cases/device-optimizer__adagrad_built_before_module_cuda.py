"""Adagrad constructed before `l.cuda()`: its state_sum was allocated on the CPU.

Source: https://github.com/pytorch/pytorch/issues/7844
The issue argued that the docs' "move the model before constructing optimizers" warning was
wrong because `Module.cuda()` keeps the same Parameter objects. SsnL's answer showed it still
matters in general: `o = torch.optim.Adagrad(l.parameters()); l.cuda(); ...backward(); o.step()`
fails, because Adagrad allocates `state_sum` in its constructor, on the parameters' device then.
Re-creating the optimizer after the move fixes it. The backward is replaced by setting the grads.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch

l = torch.nn.Linear(3, 3)
o = torch.optim.Adagrad(l.parameters())
l.to("cuda:0")
for p in l.parameters():      # stand-in for l(torch.randn(1, 3, device='cuda')).sum().backward()
    p.grad = torch.ones_like(p)
'''
CELL = '''
o.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["o"]
FIX = "namespace"
REFERENCE_FIX = '''
o = torch.optim.Adagrad(l.parameters())
'''
REFERENCE_EDIT = None
CLEAN = False
