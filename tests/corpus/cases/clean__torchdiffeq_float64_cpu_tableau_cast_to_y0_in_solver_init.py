"""Look-alike: torchdiffeq keeps its Dormand-Prince tableau as module-level float64 CPU tensors and casts them to `y0`'s device and dtype when a solver is built.

Source: https://github.com/rtqichen/torchdiffeq/blob/master/torchdiffeq/_impl/rk_common.py
`_DORMAND_PRINCE_SHAMPINE_TABLEAU` is created at import time with `dtype=torch.float64` on the CPU;
`RKAdaptiveStepsizeODESolver.__init__` rebuilds it with `alpha.to(device=device, dtype=y0.dtype)`
(and the same for `beta`, `c_sol`, `c_error`), so a float32 GPU solve never touches the CPU float64
originals. Stand-in: the tableau, the solver's cast in `__init__` and `_runge_kutta_step`, with a
fixed step instead of the adaptive step-size control; a neural ODE func on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import collections
import torch
import torch.nn as nn

_ButcherTableau = collections.namedtuple("_ButcherTableau", "alpha, beta, c_sol, c_error")

_DORMAND_PRINCE_SHAMPINE_TABLEAU = _ButcherTableau(
    alpha=torch.tensor([1 / 5, 3 / 10, 4 / 5, 8 / 9, 1., 1.], dtype=torch.float64),
    beta=[
        torch.tensor([1 / 5], dtype=torch.float64),
        torch.tensor([3 / 40, 9 / 40], dtype=torch.float64),
        torch.tensor([44 / 45, -56 / 15, 32 / 9], dtype=torch.float64),
        torch.tensor([19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729], dtype=torch.float64),
        torch.tensor([9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656], dtype=torch.float64),
        torch.tensor([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84], dtype=torch.float64),
    ],
    c_sol=torch.tensor([35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0], dtype=torch.float64),
    c_error=torch.tensor([35 / 384 - 1951 / 21600, 0, 500 / 1113 - 22642 / 50085, 125 / 192 - 451 / 720,
                          -2187 / 6784 - -12231 / 42400, 11 / 84 - 649 / 6300, -1. / 60.], dtype=torch.float64),
)

def _runge_kutta_step(func, y0, f0, t0, dt, tableau):
    t0 = t0.to(y0.dtype)
    dt = dt.to(y0.dtype)
    k = [f0]
    for i, (alpha_i, beta_i) in enumerate(zip(tableau.alpha, tableau.beta)):
        ti = t0 + alpha_i * dt
        yi = y0 + torch.stack(k, dim=-1).matmul(beta_i * dt).view_as(f0)
        k.append(func(ti, yi))
    K = torch.stack(k, dim=-1)
    y1 = y0 + K.matmul(dt * tableau.c_sol).view_as(f0)
    y1_error = K.matmul(dt * tableau.c_error)
    return y1, k[-1], y1_error

class Dopri5Solver:
    tableau = _DORMAND_PRINCE_SHAMPINE_TABLEAU
    def __init__(self, func, y0, step_size):
        self.func, self.y0, self.step_size = func, y0, step_size
        device = y0.device
        self.tableau = _ButcherTableau(alpha=self.tableau.alpha.to(device=device, dtype=y0.dtype),
                                       beta=[b.to(device=device, dtype=y0.dtype) for b in self.tableau.beta],
                                       c_sol=self.tableau.c_sol.to(device=device, dtype=y0.dtype),
                                       c_error=self.tableau.c_error.to(device=device, dtype=y0.dtype))
    def integrate(self, t):
        solution = [self.y0]
        y = self.y0
        for t0, t1 in zip(t[:-1], t[1:]):
            f0 = self.func(t0, y)
            y, _, _ = _runge_kutta_step(self.func, y, f0, t0, t1 - t0, self.tableau)
            solution.append(y)
        return torch.stack(solution)

def odeint(func, y0, t, method="dopri5"):
    return Dopri5Solver(func, y0, step_size=None).integrate(t)

class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 50), nn.Tanh(), nn.Linear(50, 2))
    def forward(self, t, y):
        return self.net(y ** 3)

device = torch.device("cuda:0")
func = ODEFunc().to(device)
batch_y0 = torch.randn(20, 1, 2).to(device)
batch_t = torch.linspace(0., 1., 10).to(device)
'''
CELL = '''
with torch.no_grad():
    pred_y = odeint(func, batch_y0, batch_t)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
