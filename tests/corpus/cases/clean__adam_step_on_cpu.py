"""Adam on the GPU keeps `state["step"]` as a CPU tensor, on purpose.

Source: https://github.com/pytorch/pytorch/issues/74424
Since `step` became a tensor, Adam/AdamW create it on the CPU (reading it on the host is cheap
and it needs no GPU sync) unless `capturable=True`; the maintainers discuss keeping it there
after `load_state_dict`. A CPU state tensor next to CUDA parameters is intended, not a bug.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to("cuda:0")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in model.parameters():
    p.grad = torch.ones_like(p)
opt.step()
'''
CELL = '''
opt.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
