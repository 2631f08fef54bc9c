"""qadence `ml_tools.optimize_step`: the `device` argument is accepted but never used, so the batch stays on the CPU.

Source: https://github.com/pasqal-io/qadence/issues/133
"the optimize_step function has a `device` argument which is not being used. It may be related
with some issues while trying to run `train_grad`-dependent code with device='cuda' that raises
... Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu!" -- the training helper passes the CPU batch straight to `loss_fn(model, xs)`; the fix moves
the data to `device` first. Stand-in: a small regression model and qadence's helper reduced to
its body, with the gradients backward would leave.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def data_to_device(xs, device):
    if device is None:
        return xs
    if isinstance(xs, (list, tuple)):
        return type(xs)(x.to(device) for x in xs)
    return xs.to(device)

def optimize_step(model, optimizer, loss_fn, xs, device=None):
    optimizer.zero_grad()
    loss, metrics = loss_fn(model, xs)
    for p in model.parameters():       # stand-in for loss.backward()
        p.grad = torch.ones_like(p)
    optimizer.step()
    return loss, metrics

def loss_fn(model, data):
    x, y = data
    out = model(x)
    loss = torch.nn.functional.mse_loss(out.squeeze(-1), y)
    return loss, {}

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.rand(32, 2)
y = torch.sin(x.sum(-1))
'''
CELL = '''
loss, metrics = optimize_step(model, optimizer, loss_fn, (x, y), device=device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["x"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    loss, metrics = loss_fn(model, xs)",
    "    xs = data_to_device(xs, device)\n    loss, metrics = loss_fn(model, xs)",
)
CLEAN = False
