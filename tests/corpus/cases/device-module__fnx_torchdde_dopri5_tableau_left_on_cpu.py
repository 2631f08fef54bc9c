"""torchdde: integrating a neural ODE on the GPU with `Dopri5()` fails in `Dopri5.step` (tableau on the CPU).

Source: https://github.com/thibmonsel/torchdde/issues/43
"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!" from `Dopri5.step()`: the Butcher tableau (`a_lower`, `b_sol`, `b_error`, `c`) lives in
class-level tuples of CPU tensors that `Module.to()` never sees. The maintainer: put the solver on
the device, `solver = Dopri5(); solver.to(device)` (a custom `to`). Stand-ins: `Dopri5` with its real
tableau layout and einsum steps, a fixed-step `integrate`, a small MLP vector field.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class AbstractOdeSolver(nn.Module):
    pass

class Dopri5(AbstractOdeSolver):
    a_lower = (
        torch.tensor([1 / 5]),
        torch.tensor([3 / 40, 9 / 40]),
        torch.tensor([44 / 45, -56 / 15, 32 / 9]),
        torch.tensor([19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729]),
        torch.tensor([9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656]),
        torch.tensor([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]),
    )
    b_sol = (torch.tensor([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0]),)
    c = (torch.tensor([1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0]),)

    def to(self, device):
        self.a_lower = tuple([ai.to(device) for ai in self.a_lower])
        self.b_sol = tuple([bi.to(device) for bi in self.b_sol])
        self.c = tuple([ci.to(device) for ci in self.c])
        return self

    def step(self, func, t, y, dt, args):
        k = [func(t, y, args)]
        for ci, ai in zip(self.c[0], self.a_lower):
            k.append(func(t + dt * ci, y + dt * torch.einsum("k, kbf -> bf", ai, torch.stack(k)), args))
        return y + dt * torch.einsum("k, kbf -> bf", self.b_sol[0], torch.stack(k))

def integrate(func, solver, t0, t1, ts, y0, args=None, dt0=0.1):
    ys, t, y = [y0], t0, y0
    while len(ys) < len(ts):
        y = solver.step(func, t, y, dt0, args)
        t = t + dt0
        ys.append(y)
    return torch.stack(ys, dim=1)

class VectorField(nn.Module):
    def __init__(self, features=2, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(features, width), nn.Tanh(), nn.Linear(width, features))

    def forward(self, t, y, args):
        return self.net(y)

device = torch.device("cuda:0")
model = VectorField().to(device)
solver = Dopri5()
ts = torch.linspace(0, 1, 11, device=device)
y0 = torch.randn(16, 2, device=device)
'''
CELL = '''
ys = integrate(model, solver, ts[0], ts[-1], ts, y0, dt0=0.1)
print(ys.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["solver"]
FIX = "namespace"
REFERENCE_FIX = '''
solver.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
