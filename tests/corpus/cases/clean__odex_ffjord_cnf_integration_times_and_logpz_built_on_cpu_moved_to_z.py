"""Look-alike: FFJORD's CNF layer builds its integration times and zero log-density on the CPU and moves them onto `z`; the Hutchinson noise follows `y`.

Source: https://github.com/rtqichen/ffjord/blob/master/lib/layers/cnf.py
`CNF.forward` does `_logpz = torch.zeros(z.shape[0], 1).to(z)` and
`integration_times = torch.stack([torch.tensor(0.0).to(z), self.sqrt_end_time * self.sqrt_end_time]).to(z)`
(`sqrt_end_time` a registered parameter), and `ODEfunc` keeps a `_num_evals` buffer and samples
`sample_rademacher_like(y)` = `torch.randint(low=0, high=2, size=y.shape).to(y) * 2 - 1`; train_toy's
loss starts from `zero = torch.zeros(x.shape[0], 1).to(x)`. Nothing is left on the CPU.
Stand-ins: odefunc.py's ODEfunc with divergence_approx and a concat-squash MLP reduced to
concat-linear; `odeint` as fixed Euler steps over the (state, logp) tuple. meta plays the GPU
(the divergence needs autograd).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

def odeint(func, state, t, atol=1e-5, rtol=1e-5, n_steps=4):
    t0, t1 = t.unbind(0)
    dt = (t1 - t0) / n_steps
    ti = t0
    for _ in range(n_steps):
        d = func(ti, state)
        state = tuple(s + dt * ds for s, ds in zip(state, d))
        ti = ti + dt
    return state

def sample_rademacher_like(y):
    return torch.randint(low=0, high=2, size=y.shape).to(y) * 2 - 1

def divergence_approx(f, y, e=None):
    e_dzdx = torch.autograd.grad(f, y, e, create_graph=True)[0]
    e_dzdx_e = e_dzdx * e
    approx_tr_dzdx = e_dzdx_e.view(y.shape[0], -1).sum(dim=1)
    return approx_tr_dzdx

class ConcatLinear(nn.Module):
    def __init__(self, dim_in, dim_out):
        super(ConcatLinear, self).__init__()
        self._layer = nn.Linear(dim_in + 1, dim_out)

    def forward(self, t, x):
        tt = torch.ones_like(x.sum(1, keepdim=True)) * t
        return self._layer(torch.cat([tt, x], 1))

class ODEnet(nn.Module):
    def __init__(self, dims):
        super(ODEnet, self).__init__()
        self.layers = nn.ModuleList([ConcatLinear(a, b) for a, b in zip(dims[:-1], dims[1:])])

    def forward(self, t, y):
        dx = y
        for i, layer in enumerate(self.layers):
            dx = layer(t, dx)
            if i < len(self.layers) - 1:
                dx = torch.tanh(dx)
        return dx

class ODEfunc(nn.Module):
    def __init__(self, diffeq):
        super(ODEfunc, self).__init__()
        self.diffeq = diffeq
        self.divergence_fn = divergence_approx
        self.register_buffer("_num_evals", torch.tensor(0.))

    def before_odeint(self, e=None):
        self._e = e
        self._num_evals.fill_(0)

    def forward(self, t, states):
        y = states[0]
        t = t.type_as(y)
        self._num_evals += 1
        if self._e is None:
            self._e = sample_rademacher_like(y)
        with torch.enable_grad():
            y.requires_grad_(True)
            t.requires_grad_(True)
            dy = self.diffeq(t, y)
            divergence = self.divergence_fn(dy, y, e=self._e).view(-1, 1)
        return dy, -divergence

class CNF(nn.Module):
    def __init__(self, odefunc, T=1.0, train_T=True, solver="dopri5", atol=1e-5, rtol=1e-5):
        super(CNF, self).__init__()
        if train_T:
            self.register_parameter("sqrt_end_time", nn.Parameter(torch.sqrt(torch.tensor(T))))
        else:
            self.register_buffer("sqrt_end_time", torch.sqrt(torch.tensor(T)))
        self.odefunc = odefunc
        self.solver, self.atol, self.rtol = solver, atol, rtol

    def forward(self, z, logpz=None, integration_times=None, reverse=False):
        if logpz is None:
            _logpz = torch.zeros(z.shape[0], 1).to(z)
        else:
            _logpz = logpz
        if integration_times is None:
            integration_times = torch.stack(
                [torch.tensor(0.0).to(z), self.sqrt_end_time * self.sqrt_end_time]).to(z)
        if reverse:
            integration_times = integration_times.flip(0)
        self.odefunc.before_odeint()
        z_t, logpz_t = odeint(self.odefunc, (z, _logpz), integration_times.to(z),
                              atol=self.atol, rtol=self.rtol)
        return z_t, logpz_t

def standard_normal_logprob(z):
    logZ = -0.5 * math.log(2 * math.pi)
    return logZ - z.pow(2) / 2

device = torch.device("meta")            # "cuda:0" in train_toy.py
model = CNF(ODEfunc(ODEnet([2, 64, 64, 2]))).to(device)
x = torch.randn(512, 2).to(device)       # toy_data.inf_train_gen("8gaussians", batch_size=512)
'''
CELL = '''
zero = torch.zeros(x.shape[0], 1).to(x)
z, delta_logp = model(x, zero)
logpz = standard_normal_logprob(z).sum(1, keepdim=True)
logpx = logpz - delta_logp
loss = -torch.mean(logpx)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
