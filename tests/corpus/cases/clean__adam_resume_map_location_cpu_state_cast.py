"""Look-alike: Adam state loaded from a map_location="cpu" checkpoint into an optimizer on the GPU model.

Source: https://github.com/pytorch/pytorch/issues/41839
The user resumed with `torch.load(..., map_location=torch.device('cpu'))` and believed every
optimizer state tensor then had to be moved to the GPU by hand. For torch.optim optimizers this
is done already: `Optimizer.load_state_dict` casts each state tensor to its parameter's device
(`exp_avg`, `exp_avg_sq` go to cuda:0; only Adam's `step` stays a CPU tensor, on purpose), as the
bitsandbytes PR 1344 discussion also notes. Nothing to report. The checkpoint is a CPU twin's state.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))

# what torch.load(path, map_location=torch.device("cpu")) returns: a trained run's state on the CPU
cpu_model = make_model()
cpu_optimizer = torch.optim.Adam(cpu_model.parameters(), lr=1e-3)
for p in cpu_model.parameters():
    p.grad = torch.ones_like(p)
cpu_optimizer.step()
checkpoint = {"model": cpu_model.state_dict(), "optimizer": cpu_optimizer.state_dict()}

model = make_model().to("cuda:0")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer.load_state_dict(checkpoint["optimizer"])
inputs = torch.randn(4, 8, device="cuda:0")
'''
CELL = '''
outputs = model(inputs)
for p in model.parameters():      # stands in for loss.backward() (no autograd on fake cuda)
    p.grad = torch.ones_like(p)
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
