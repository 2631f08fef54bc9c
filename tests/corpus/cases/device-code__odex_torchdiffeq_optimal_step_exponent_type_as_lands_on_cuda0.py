"""ODE-Net MNIST example on `--gpu 2`: the adaptive solver's step-size exponent lands on cuda:0.

Source: https://github.com/rtqichen/torchdiffeq/issues/13
`python odenet_mnist.py --network odenet --gpu 2` failed inside dopri5's adaptive step. In
`_optimal_step_size` the exponent was built as `torch.tensor(1 / order).type_as(last_step)`;
`type_as` a CUDA tensor means `.type('torch.cuda.FloatTensor')`, which allocates on the *current*
CUDA device (cuda:0), not on `last_step`'s cuda:2. The fix (PR #16, reviewed in the thread) builds it
with `.to(last_step)`.
Stand-ins: a fixed number of always-accepted embedded RK (Heun/Euler) steps with torchdiffeq's
`_optimal_step_size` (value-dependent branches dropped); `_legacy_type_as` reproduces the old
`type_as` placement; an MLP ODE function in an ODEBlock. The fake mode plays cuda:2.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def _legacy_type_as(tensor, other):
    # torch 1.0: tensor.type_as(other) == tensor.type(other.type()); "torch.cuda.FloatTensor"
    # is allocated on the current CUDA device (cuda:0), whatever other's index is
    return tensor.to(device="cuda:0" if other.is_cuda else "cpu", dtype=other.dtype)

def _optimal_step_size(last_step, mean_error_ratio, safety=0.9, ifactor=10.0, dfactor=0.2, order=5):
    error_ratio = torch.sqrt(mean_error_ratio).to(last_step)
    exponent = _legacy_type_as(torch.tensor(1 / order), last_step)
    factor = torch.clamp(error_ratio ** exponent / safety, 1 / ifactor, 1 / dfactor)
    return last_step / factor

def odeint(func, y0, t, rtol=1e-3, atol=1e-3, n_steps=4):
    t0, t1 = t.unbind(0)
    dt = (t1 - t0) / n_steps
    y = y0
    for _ in range(n_steps):
        f0 = func(t0, y)
        y_euler = y + dt * f0
        f1 = func(t0 + dt, y_euler)
        y_heun = y + dt * 0.5 * (f0 + f1)
        tol = atol + rtol * y_heun.abs()
        mean_error_ratio = (((y_heun - y_euler) / tol) ** 2).mean()
        y, t0 = y_heun, t0 + dt
        dt = _optimal_step_size(dt, mean_error_ratio, order=2)
    return torch.stack([y0, y])

class ODEfunc(nn.Module):
    def __init__(self, dim):
        super(ODEfunc, self).__init__()
        self.fc1 = nn.Linear(dim, dim)
        self.fc2 = nn.Linear(dim, dim)
        self.nfe = 0

    def forward(self, t, x):
        self.nfe += 1
        return self.fc2(torch.tanh(self.fc1(x)))

class ODEBlock(nn.Module):
    def __init__(self, odefunc, tol=1e-3):
        super(ODEBlock, self).__init__()
        self.odefunc = odefunc
        self.integration_time = torch.tensor([0, 1]).float()
        self.tol = tol

    def forward(self, x):
        self.integration_time = self.integration_time.to(x)
        out = odeint(self.odefunc, x, self.integration_time, rtol=self.tol, atol=self.tol)
        return out.unbind(0)[1]

device = torch.device("cuda:2")          # args.gpu = 2
feature_layers = [ODEBlock(ODEfunc(64))]
fc_layers = [nn.ReLU(), nn.Linear(64, 10)]
model = nn.Sequential(nn.Linear(784, 64), *feature_layers, *fc_layers).to(device)
x = torch.randn(128, 784).to(device)
'''
CELL = '''
logits = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["exponent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("exponent = _legacy_type_as(torch.tensor(1 / order), last_step)",
                  "exponent = torch.tensor(1 / order).to(last_step)")
CLEAN = False
