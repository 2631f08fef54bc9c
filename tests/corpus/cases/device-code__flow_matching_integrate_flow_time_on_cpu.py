"""A flow-matching notebook's integrator concatenates a CPU time column to GPU samples.

Source: https://github.com/tum-pbs/pbdl-book/issues/31
"bug(intro-teaser): tensor not on the same device": generating samples with
`x0_gen = torch.stack([x_in, y_in], axis=-1)` (on the GPU) and
`trajectory, time_points = integrate_flow(nn_fm, x0_gen)` failed inside the network's
`forward(self, x, t)` at `xt = torch.cat([x, t], dim=1)`: the time column was made on the CPU.
The maintainer fixed the notebook. The body of `integrate_flow` is not in the report; the Euler
loop below (and putting the time column on x's device as the fix) is my reconstruction.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("cuda:0")

class FlowMatchingNet(nn.Module):
    def __init__(self, dim=2, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.ELU(), nn.Linear(hidden, hidden),
                                 nn.ELU(), nn.Linear(hidden, dim))

    def forward(self, x, t):
        xt = torch.cat([x, t], dim=1)
        return self.net(xt)

def integrate_flow(model, x0, steps=20):
    dt = 1.0 / steps
    x = x0
    trajectory, time_points = [x0], [0.0]
    for i in range(steps):
        t = torch.ones(x.shape[0], 1) * (i * dt)
        x = x + dt * model(x, t)
        trajectory.append(x)
        time_points.append((i + 1) * dt)
    return torch.stack(trajectory), time_points

nn_fm = FlowMatchingNet().to(device)
n_gen = 500
'''
CELL = '''
x_in = torch.randn(n_gen).to(device) * 0.95
y_in = torch.randn(n_gen).to(device) * 0.95
x0_gen = torch.stack([x_in, y_in], axis=-1)
trajectory, time_points = integrate_flow(nn_fm, x0_gen)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["t"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones(x.shape[0], 1)", "torch.ones(x.shape[0], 1, device=x.device)")
CLEAN = False
