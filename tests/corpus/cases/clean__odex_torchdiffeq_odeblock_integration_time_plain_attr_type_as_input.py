"""Look-alike: torchdiffeq's ODE-Net keeps `integration_time` as a plain tensor attribute (not a buffer) and re-casts it with `type_as(x)` in every forward.

Source: https://github.com/rtqichen/torchdiffeq/blob/master/examples/odenet_mnist.py
`ODEBlock.__init__` sets `self.integration_time = torch.tensor([0, 1]).float()`, which
`model.to(device)` does not move; `forward` does `self.integration_time =
self.integration_time.type_as(x)` before `odeint`, so on a single GPU the time grid follows the
input. The ODE function concatenates `t` to its input (`ConcatConv2d`).
Stand-ins: ConcatConv2d reduced to a concat-linear layer on flattened features; `odeint` as fixed
Euler steps between the two times.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def odeint(func, y0, t, rtol=1e-3, atol=1e-3, n_steps=4):
    t0, t1 = t.unbind(0)
    dt = (t1 - t0) / n_steps
    y, ti = y0, t0
    for _ in range(n_steps):
        y = y + dt * func(ti, y)
        ti = ti + dt
    return torch.stack([y0, y])

class ConcatLinear(nn.Module):
    def __init__(self, dim_in, dim_out):
        super(ConcatLinear, self).__init__()
        self._layer = nn.Linear(dim_in + 1, dim_out)

    def forward(self, t, x):
        tt = torch.ones_like(x.sum(1, keepdim=True)) * t
        ttx = torch.cat([tt, x], 1)
        return self._layer(ttx)

class ODEfunc(nn.Module):
    def __init__(self, dim):
        super(ODEfunc, self).__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.relu = nn.ReLU(inplace=True)
        self.conv1 = ConcatLinear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.conv2 = ConcatLinear(dim, dim)
        self.nfe = 0

    def forward(self, t, x):
        self.nfe += 1
        out = self.relu(self.norm1(x))
        out = self.conv1(t, out)
        out = self.relu(self.norm2(out))
        return self.conv2(t, out)

class ODEBlock(nn.Module):
    def __init__(self, odefunc, tol=1e-3):
        super(ODEBlock, self).__init__()
        self.odefunc = odefunc
        self.integration_time = torch.tensor([0, 1]).float()
        self.tol = tol

    def forward(self, x):
        self.integration_time = self.integration_time.type_as(x)
        out = odeint(self.odefunc, x, self.integration_time, rtol=self.tol, atol=self.tol)
        return out.unbind(0)[1]

device = torch.device("cuda:0")
downsampling_layers = [nn.Flatten(), nn.Linear(784, 64), nn.ReLU(inplace=True)]
feature_layers = [ODEBlock(ODEfunc(64))]
fc_layers = [nn.LayerNorm(64), nn.ReLU(inplace=True), nn.Linear(64, 10)]
model = nn.Sequential(*downsampling_layers, *feature_layers, *fc_layers).to(device)
x = torch.randn(128, 1, 28, 28).to(device)
y = torch.randint(0, 10, (128,)).to(device)
criterion = nn.CrossEntropyLoss().to(device)
'''
CELL = '''
logits = model(x)
loss = criterion(logits, y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
