"""Look-alike: torchdiffeq's ode_demo keeps the true dynamics matrix `true_A` as a module-level tensor used inside `Lambda.forward`, moved to the device with the data.

Source: https://github.com/rtqichen/torchdiffeq/blob/master/examples/ode_demo.py
`true_y0`, the time grid `t = torch.linspace(0., 25., data_size)` and `true_A` are each created on
the CPU and followed by `.to(device)`; `Lambda` (no parameters) reads the global `true_A`, and the
learned `ODEFunc` is moved with `.to(device)`. Everything the solve touches is on the GPU.
Stand-in: `odeint` as a fixed-grid RK4 over the points of `t` (unbind instead of indexing).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def odeint(func, y0, t):
    ts = t.unbind(0)
    ys = [y0]
    y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        dt = t1 - t0
        k1 = func(t0, y)
        k2 = func(t0 + dt / 2, y + dt * k1 / 2)
        k3 = func(t0 + dt / 2, y + dt * k2 / 2)
        k4 = func(t1, y + dt * k3)
        y = y + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6
        ys.append(y)
    return torch.stack(ys)

device = torch.device("cuda:0")
data_size = 50
true_y0 = torch.tensor([[2., 0.]]).to(device)
t = torch.linspace(0., 25., data_size).to(device)
true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]]).to(device)

class Lambda(nn.Module):
    def forward(self, t, y):
        return torch.mm(y**3, true_A)

with torch.no_grad():
    true_y = odeint(Lambda(), true_y0, t)

class ODEFunc(nn.Module):
    def __init__(self):
        super(ODEFunc, self).__init__()
        self.net = nn.Sequential(nn.Linear(2, 50), nn.Tanh(), nn.Linear(50, 2))

    def forward(self, t, y):
        return self.net(y**3)

func = ODEFunc().to(device)
'''
CELL = '''
pred_y = odeint(func, true_y0, t)
loss = torch.mean(torch.abs(pred_y - true_y))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
