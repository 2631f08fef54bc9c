"""hippynn restart: the pickled training modules are loaded with `map_location="cpu"`, the model is moved, Adam's state is not.

Source: https://github.com/lanl/hippynn/pull/14
"Proper device handling for restart": continuing training from a checkpoint failed inside the
optimizer step with "Expected all tensors to be on the same device ... cuda:0 and cpu!"; the
reporter: "I guess it's because the grad tensor is on GPU, but the exp_avg tensor is CPU". The
checkpoint pickles the model together with its optimizer; after loading on the CPU only the model
is sent to the GPU, so the optimizer keeps the (same, now moved) parameters but CPU state. The fix
in the PR is the pytorch#8741 trick: move every tensor in `optimizer.state` to the device
(`step` is left on the CPU here, where Adam keeps it). The pickle round trip is left out: the
objects are built as the CPU load returns them.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.layers(x)

# the restarted training modules, as torch.load(checkpoint, map_location="cpu") returns them:
# the model and its optimizer unpickled together, Adam's state (exp_avg, exp_avg_sq) on the CPU
model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for p in model.parameters():
    p.grad = torch.ones_like(p)
optimizer.step()
structure = {"model": model, "optimizer": optimizer}

# restart on the GPU
model, optimizer = structure["model"], structure["optimizer"]
device = torch.device("cuda:0")
model.to(device)
x = torch.randn(16, 8).to(device)
y = torch.randn(16, 1).to(device)
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
with torch.no_grad():
    loss = F.mse_loss(model(x), y)
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
    for k, v in state.items():
        if isinstance(v, torch.Tensor) and k != "step":
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
