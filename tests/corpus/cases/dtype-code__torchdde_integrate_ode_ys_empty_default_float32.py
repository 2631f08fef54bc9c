"""torchdde `_integrate_ode` allocates the output `ys` with `torch.empty(..., device=y0.device)` and no dtype: a float64 solve cannot be stored.

Source: https://github.com/thibmonsel/torchdde/issues/33
"`ys` dtype in _integrate_ode": "This line imposes the data type `torch.float32` by default.
Consequently, integration with `torch.float64` can't be performed because of floating point
precision mix." The solution is written into `ys[:, idx]` with a tensor index (`state.save_idx`),
an index_put that refuses a float64 source for the float32 buffer. Stand-in: torchdde's
`integrate`/`_integrate_ode` loop (at the reported commit) with a constant step-size controller, the
Euler solver and its linear interpolation; the ODE is a float64 linear system.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn

class Euler:
    def order(self):
        return 1
    def step(self, func, t, y, dt, args, has_aux=False):
        y1 = y + dt * func(t, y, args)
        return y1, None, dict(y0=y, y1=y1), None
    def build_interpolation(self, t0, t1, dense_info):
        y0, y1 = dense_info["y0"], dense_info["y1"]
        return lambda t: y0 + (t - t0) / (t1 - t0) * (y1 - y0)

class ConstantStepSizeController:
    def init(self, func, t0, t1, y0, dt0, args, error_order):
        return t0 + dt0, dt0
    def adapt_step_size(self, func, t0, t1, y0, y1_candidate, args, y_error, error_order, dt):
        return torch.tensor(True), t1, t1 + dt, dt

def _integrate_ode(func, t0, t1, ts, y0, args, solver, stepsize_controller, dt0=None, max_steps=100, has_aux=False):
    tnext, dt = stepsize_controller.init(func, t0, t1, y0, dt0, args, solver.order())
    tprev, y = t0, y0
    save_idx, num_steps = torch.tensor([0], device=y0.device), 0
    ys = torch.empty((y0.shape[0], ts.shape[0], *(y0.shape[1:])), device=y0.device)
    cond = tprev < t1
    while cond and num_steps < max_steps:
        y_new, y_error, dense_info, aux = solver.step(func, tprev, y, dt, args, has_aux=has_aux)
        keep_step, tprev_new, tnext_new, dt = stepsize_controller.adapt_step_size(
            func, tprev, tnext, y, y_new, args, y_error, solver.order(), dt)
        tprev_new = torch.clamp(tprev_new, max=t1)
        step_save_idx = 0
        if keep_step:
            interp = solver.build_interpolation(tprev, tnext, dense_info)
            while save_idx + step_save_idx < ts.shape[0] and torch.any(tnext >= ts[save_idx + step_save_idx:]):
                idx = save_idx + step_save_idx
                out = interp(ts[idx])
                ys[:, idx] = out.unsqueeze(1) if len(out.shape) != len(ys[:, idx].shape) else out
                step_save_idx += 1
        y = torch.where(keep_step, y_new, y)
        save_idx = save_idx + step_save_idx
        tprev, tnext, num_steps = tprev_new, tnext_new, num_steps + 1
        cond = tprev < t1
    return ys, aux

def integrate(func, solver, t0, t1, ts, y0, args=None, stepsize_controller=ConstantStepSizeController(), dt0=None):
    return _integrate_ode(func, t0, t1, ts, y0, args, solver, stepsize_controller, dt0)[0]

class LinearODE(nn.Module):
    def __init__(self):
        super().__init__()
        self.A = nn.Parameter(torch.tensor([[-0.1, 2.0], [-2.0, -0.1]], dtype=torch.float64))
    def forward(self, t, y, args):
        return y @ self.A.T

torch.manual_seed(0)
func = LinearODE()
ts = torch.linspace(0, 1, 11, dtype=torch.float64)
y0 = torch.tensor([[2.0, 0.0], [1.0, 1.0]], dtype=torch.float64)
dt0 = torch.tensor(0.05, dtype=torch.float64)
'''
CELL = '''
ys = integrate(func, Euler(), ts[0], ts[-1], ts, y0, None, dt0=dt0)
'''
EXPECT_ERROR = ("Index put requires the source and destination dtypes match", "expected scalar type")
CULPRITS = ["ys"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ys = torch.empty((y0.shape[0], ts.shape[0], *(y0.shape[1:])), device=y0.device)",
                  "ys = torch.empty((y0.shape[0], ts.shape[0], *(y0.shape[1:])), device=y0.device, dtype=y0.dtype)")
CLEAN = False
