"""Look-alike: torchdiffeq's `odeint` given a CPU time grid and a CUDA initial state: it moves `t` itself.

Source: https://github.com/rtqichen/torchdiffeq/blob/master/torchdiffeq/_impl/misc.py
examples/ode_demo.py long built `t = torch.linspace(0., 25., args.data_size)` on the CPU while
`true_y0` and the ODE function lived on the GPU. That is supported: `_check_inputs` keeps a
"Backward compatibility: Allow t and y0 to be on different devices" block that warns and does
`t = t.to(y0.device)`, and `_WrapFunc` casts every `t` with `t.type_as(y)` before calling the
user's function, so the solve runs entirely on the GPU. Stand-in: `odeint` with that input
normalisation and a fixed-grid RK4 step (time checks that read tensor values left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import warnings
import torch
import torch.nn as nn

class _WrapFunc:
    def __init__(self, base_func):
        self.base_func = base_func
    def __call__(self, t, y):
        t = t.type_as(y)
        return self.base_func(t, y)

def _check_inputs(func, y0, t):
    # Backward compatibility: Allow t and y0 to be on different devices
    if t.device != y0.device:
        warnings.warn("t is not on the same device as y0. Coercing to y0.device.")
        t = t.to(y0.device)
    return _WrapFunc(func), y0, t

def _rk4_step(func, t0, dt, y0):
    k1 = func(t0, y0)
    k2 = func(t0 + dt / 2, y0 + dt * k1 / 2)
    k3 = func(t0 + dt / 2, y0 + dt * k2 / 2)
    k4 = func(t0 + dt, y0 + dt * k3)
    return dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6

def odeint(func, y0, t, method='rk4'):
    func, y0, t = _check_inputs(func, y0, t)
    ts = t.unbind(0)
    solution = [y0]
    y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        y = y + _rk4_step(func, t0, t1 - t0, y)
        solution.append(y)
    return torch.stack(solution)

class ODEFunc(nn.Module):
    def __init__(self):
        super(ODEFunc, self).__init__()
        self.net = nn.Sequential(nn.Linear(2, 50), nn.Tanh(), nn.Linear(50, 2))
    def forward(self, t, y):
        return self.net(y ** 3)

device = torch.device('cuda:0')
data_size = 100
true_y0 = torch.tensor([[2., 0.]]).to(device)
t = torch.linspace(0., 25., data_size)                     # ode_demo.py before PR #126: on the CPU
func = ODEFunc().to(device)
'''
CELL = '''
with torch.no_grad():
    pred_y = odeint(func, true_y0, t, method='rk4')
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
