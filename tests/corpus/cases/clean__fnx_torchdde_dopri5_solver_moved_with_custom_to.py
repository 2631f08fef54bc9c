"""torchdde `Dopri5`: Butcher-tableau tensors built on the CPU at class level, moved with the solver's own `to(device)`.

Source: https://github.com/thibmonsel/torchdde/blob/main/torchdde/solver/dopri5.py
`Dopri5` keeps `a_lower`, `b_sol` and `c` as class-level tuples of CPU tensors and overrides
`to(device)` to move them; after `solver.to(device)` the einsum steps run on the GPU while the class
still holds its CPU copies. The scalar `ci` taken from `c[0]` multiplies the cuda `dt`/`t`. Look-alike
that runs: CPU tensors on a class beside a cuda model, by design. Stand-ins: the solver's real
tableau layout and `step`, a fixed-step `integrate`, an MLP vector field.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
solver.to(device)
ts = torch.linspace(0, 1, 11, device=device)
y0 = torch.randn(16, 2, device=device)
'''
CELL = '''
ys = integrate(model, solver, ts[0], ts[-1], ts, y0, dt0=0.1)
print(ys.shape, ys.device, Dopri5.c[0].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
