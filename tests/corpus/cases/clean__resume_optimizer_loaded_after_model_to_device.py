"""Look-alike: resuming with the model moved to the device before the optimizer state is loaded.

Source: https://github.com/bohaohuang/mrs/pull/47
"move optimizer to device after in resume training": the fix reorders the resume so the model is
on the device when `optimizer.load_state_dict` runs; PyTorch then casts the restored Adam moments
to the parameters' device (the `step` counters stay on the CPU, as Adam wants). Nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def make_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 2, 1))

# the checkpoint written by an earlier run, loaded with map_location="cpu"
_old = make_model()
_old_opt = torch.optim.Adam(_old.parameters(), lr=1e-3)
for _p in _old.parameters():
    _p.grad = torch.ones_like(_p)
_old_opt.step()
checkpoint = {"state_dict": _old.state_dict(), "opt_state_dict": _old_opt.state_dict()}

device = torch.device("cuda:0")
model = make_model()
model.load_state_dict(checkpoint["state_dict"])
model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer.load_state_dict(checkpoint["opt_state_dict"])
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in model.parameters():
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
