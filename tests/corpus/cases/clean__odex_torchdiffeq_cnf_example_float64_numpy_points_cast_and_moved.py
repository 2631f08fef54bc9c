"""Look-alike: torchdiffeq's CNF example turns float64 numpy points into float32 device tensors and builds its time grid and zero log-density on the CPU before moving them.

Source: https://github.com/rtqichen/torchdiffeq/blob/master/examples/cnf.py
`get_batch` does `x = torch.tensor(points).type(torch.float32).to(device)` (points from
`make_circles`, float64) and `logp_diff_t1 = torch.zeros(num_samples, 1).type(torch.float32).to(device)`;
the solve runs over `torch.tensor([t1, t0]).type(torch.float32).to(device)`, and the base density
`p_z0` is built from `.to(device)` loc/covariance. The hypernetwork CNF lives on the device.
Stand-ins: numpy circles for sklearn's `make_circles`; `odeint` as fixed Euler steps over the
(z, logp) tuple; the diagonal-Gaussian log-density written out instead of `MultivariateNormal`
(whose argument validation needs values). meta plays the GPU (the trace needs autograd).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn

def odeint(func, state, t, atol=1e-5, rtol=1e-5, method="dopri5", n_steps=4):
    t0, t1 = t.unbind(0)
    dt = (t1 - t0) / n_steps
    ti = t0
    traj = [state]
    for _ in range(n_steps):
        d = func(ti, state)
        state = tuple(s + dt * ds for s, ds in zip(state, d))
        ti = ti + dt
        traj.append(state)
    return tuple(torch.stack(parts) for parts in zip(*traj))

class CNF(nn.Module):
    def __init__(self, in_out_dim, hidden_dim, width):
        super().__init__()
        self.in_out_dim = in_out_dim
        self.hidden_dim = hidden_dim
        self.width = width
        self.hyper_net = HyperNetwork(in_out_dim, hidden_dim, width)

    def forward(self, t, states):
        z = states[0]
        batchsize = z.shape[0]
        with torch.set_grad_enabled(True):
            z.requires_grad_(True)
            W, B, U = self.hyper_net(t)
            Z = torch.unsqueeze(z, 0).repeat(self.width, 1, 1)
            h = torch.tanh(torch.matmul(Z, W) + B)
            dz_dt = torch.matmul(h, U).mean(0)
            dlogp_z_dt = -trace_df_dz(dz_dt, z).view(batchsize, 1)
        return (dz_dt, dlogp_z_dt)

def trace_df_dz(f, z):
    sum_diag = 0.
    for i in range(z.shape[1]):
        sum_diag += torch.autograd.grad(f[:, i].sum(), z, create_graph=True)[0].contiguous()[:, i].contiguous()
    return sum_diag.contiguous()

class HyperNetwork(nn.Module):
    def __init__(self, in_out_dim, hidden_dim, width):
        super().__init__()
        blocksize = width * in_out_dim
        self.fc1 = nn.Linear(1, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, hidden_dim)
        self.fc3 = nn.Linear(hidden_dim, 3 * blocksize + width)
        self.in_out_dim = in_out_dim
        self.hidden_dim = hidden_dim
        self.width = width
        self.blocksize = blocksize

    def forward(self, t):
        params = t.reshape(1, 1)
        params = torch.tanh(self.fc1(params))
        params = torch.tanh(self.fc2(params))
        params = self.fc3(params)
        params = params.reshape(-1)
        W = params[:self.blocksize].reshape(self.width, self.in_out_dim, 1)
        U = params[self.blocksize:2 * self.blocksize].reshape(self.width, 1, self.in_out_dim)
        G = params[2 * self.blocksize:3 * self.blocksize].reshape(self.width, 1, self.in_out_dim)
        U = U * torch.sigmoid(G)
        B = params[3 * self.blocksize:].reshape(self.width, 1, 1)
        return [W, B, U]

def make_circles(n_samples, noise=0.06, factor=0.5):
    n_out = n_samples // 2
    angles = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    outer = np.stack([np.cos(angles), np.sin(angles)], 1)
    points = np.concatenate([outer, factor * outer], 0)
    return points + noise * np.random.randn(*points.shape), None

def get_batch(num_samples):
    points, _ = make_circles(n_samples=num_samples, noise=0.06, factor=0.5)
    x = torch.tensor(points).type(torch.float32).to(device)
    logp_diff_t1 = torch.zeros(num_samples, 1).type(torch.float32).to(device)
    return (x, logp_diff_t1)

class DiagonalNormal:
    def __init__(self, loc, covariance_matrix):
        self.loc = loc
        self.var = torch.diagonal(covariance_matrix)

    def log_prob(self, value):
        return (-0.5 * ((value - self.loc) ** 2 / self.var + torch.log(2 * math.pi * self.var))).sum(-1)

device = torch.device("meta")            # "cuda:" + str(args.gpu) in the example
t0, t1 = 0, 10
num_samples = 512
func = CNF(in_out_dim=2, hidden_dim=32, width=64).to(device)
p_z0 = DiagonalNormal(
    loc=torch.tensor([0.0, 0.0]).to(device),
    covariance_matrix=torch.tensor([[0.1, 0.0], [0.0, 0.1]]).to(device))
'''
CELL = '''
x, logp_diff_t1 = get_batch(num_samples)
z_t, logp_diff_t = odeint(
    func,
    (x, logp_diff_t1),
    torch.tensor([t1, t0]).type(torch.float32).to(device),
    atol=1e-5, rtol=1e-5, method="dopri5")
z_t0, logp_diff_t0 = z_t[-1], logp_diff_t[-1]
logp_x = p_z0.log_prob(z_t0).to(device) - logp_diff_t0.view(-1)
loss = -logp_x.mean(0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
