"""torchdde Dopri5 solver: its Butcher tableau tensors stay on the CPU while the state is on the GPU.

Source: https://github.com/thibmonsel/torchdde/issues/43
"`Dopri5.step()` throw error ... Expected all tensors to be on the same device, cuda:0 and cpu!";
"in line 93 and 107, self.c[0], self.a_lower are at 'cpu', maybe it needs to be called first
self.to(device)?". Maintainer: "You need to put the Dopri5 solver on device: solver = Dopri5();
solver.to(device)". The vector field and the state were on CUDA, the solver object was not moved.
Stand-in: the solver as a Module holding its tableau (c entries, a_lower rows, b_sol) as buffers; the step
is the explicit Runge-Kutta stage loop of torchdde with einsum over the stacked stages.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Dopri5(nn.Module):
    def __init__(self):
        super().__init__()
        for i, ci in enumerate([1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0]):
            self.register_buffer(f"c_{i}", torch.tensor(ci))
        rows = [[1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
                [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
                [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
                [35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
        for i, r in enumerate(rows):
            self.register_buffer(f"a_lower_{i}", torch.tensor(r))
        self.register_buffer("b_sol", torch.tensor([35 / 384, 0, 500 / 1113, 125 / 192,
                                                    -2187 / 6784, 11 / 84, 0]))

    def step(self, func, t, y, dt, args=None):
        k = [func(t, y, args)]
        for i in range(6):
            ci, ai = getattr(self, f"c_{i}"), getattr(self, f"a_lower_{i}")
            ki = func(t + dt * ci, y + dt * torch.einsum("k, kbf -> bf", ai, torch.stack(k)), args)
            k.append(ki)
        y1 = y + dt * torch.einsum("k, kbf -> bf", self.b_sol, torch.stack(k))
        return y1

class VectorField(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.Tanh(), nn.Linear(32, dim))

    def forward(self, t, y, args):
        return self.net(y)

device = torch.device("cuda:0")
func = VectorField().to(device)
solver = Dopri5()
y0 = torch.randn(8, 4).to(device)
t0 = torch.zeros(()).to(device)
'''
CELL = '''
with torch.no_grad():
    y1 = solver.step(func, t0, y0, 0.1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["solver"]
FIX = "namespace"
REFERENCE_FIX = '''
solver.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
