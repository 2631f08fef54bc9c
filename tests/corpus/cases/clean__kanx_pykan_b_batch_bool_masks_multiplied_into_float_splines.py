"""pykan's B_batch builds order-0 B-splines as bool masks `(x >= grid[:, :-1]) * (x < grid[:, 1:])` and mixes them into float recursions: mixed dtypes by design.

Source: https://github.com/KindXiaoming/pykan/blob/master/kan/spline.py
Look-alike: the k=0 basis is a bool tensor; the Cox-de Boor step multiplies it with float ratios, which
promotes to float, and `coef2curve` einsums the float result with the float32 coefficients. Runs on the
CPU as in the tutorials. Stand-in: B_batch/coef2curve (0.0.x signature) and a KANLayer evaluation.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def B_batch(x, grid, k=0, extend=True, device="cpu"):
    # pykan 0.0.x spline.B_batch; `t[:, a:b]` slices written as narrow() (same values)
    def extend_grid(grid, k_extend=0):
        G = grid.shape[1]
        h = (grid.narrow(1, G - 1, 1) - grid.narrow(1, 0, 1)) / (G - 1)
        for i in range(k_extend):
            grid = torch.cat([grid.narrow(1, 0, 1) - h, grid], dim=1)
            grid = torch.cat([grid, grid.narrow(1, grid.shape[1] - 1, 1) + h], dim=1)
        grid = grid.to(device)
        return grid

    if extend:
        grid = extend_grid(grid, k_extend=k)
    grid = grid.unsqueeze(dim=2).to(device)
    x = x.unsqueeze(dim=1).to(device)
    G = grid.shape[1]
    if k == 0:
        value = (x >= grid.narrow(1, 0, G - 1)) * (x < grid.narrow(1, 1, G - 1))
    else:
        B_km1 = B_batch(x.squeeze(1), grid=grid.squeeze(2), k=k - 1, extend=False, device=device)
        n = B_km1.shape[1]
        value = (x - grid.narrow(1, 0, G - k - 1)) / (grid.narrow(1, k, G - k - 1) - grid.narrow(1, 0, G - k - 1)) * B_km1.narrow(1, 0, n - 1) + (
            grid.narrow(1, k + 1, G - k - 1) - x) / (grid.narrow(1, k + 1, G - k - 1) - grid.narrow(1, 1, G - k - 1)) * B_km1.narrow(1, 1, n - 1)
    return value

def coef2curve(x_eval, grid, coef, k, device="cpu"):
    # x_eval: (size, batch), grid: (size, grid), coef: (size, coef)
    y_eval = torch.einsum("ij,ijk->ik", coef, B_batch(x_eval, grid, k, device=device))
    return y_eval

class KANLayer(nn.Module):
    def __init__(self, in_dim=3, out_dim=2, num=5, k=3, noise_scale=0.1, scale_base=1.0, scale_sp=1.0,
                 base_fun=torch.nn.SiLU(), grid_eps=0.02, grid_range=[-1, 1], sp_trainable=True,
                 sb_trainable=True, device="cpu"):
        super().__init__()
        self.size = size = out_dim * in_dim
        self.out_dim = out_dim
        self.in_dim = in_dim
        self.num = num
        self.k = k
        self.grid = torch.einsum("i,j->ij", torch.ones(size), torch.linspace(grid_range[0], grid_range[1], steps=num + 1))
        self.grid = torch.nn.Parameter(self.grid).requires_grad_(False)
        # (pykan fits coef to noise with curve2coef/lstsq; reduced to the noise itself)
        self.coef = torch.nn.Parameter(noise_scale / num * torch.randn(size, num + k))
        self.scale_base = torch.nn.Parameter(torch.ones(size) * scale_base).requires_grad_(sb_trainable)
        self.scale_sp = torch.nn.Parameter(torch.ones(size) * scale_sp).requires_grad_(sp_trainable)
        self.base_fun = base_fun
        self.mask = torch.nn.Parameter(torch.ones(size)).requires_grad_(False)
        self.grid_eps = grid_eps
        self.device = device

    def forward(self, x):
        batch = x.shape[0]
        x = torch.einsum("ij,k->ikj", x, torch.ones(self.out_dim, device=self.device)).reshape(batch, self.size).permute(1, 0)
        preacts = x.permute(1, 0).clone().reshape(batch, self.out_dim, self.in_dim)
        base = self.base_fun(x).permute(1, 0)
        y = coef2curve(x_eval=x, grid=self.grid, coef=self.coef, k=self.k, device=self.device)
        y = y.permute(1, 0)
        postspline = y.clone().reshape(batch, self.out_dim, self.in_dim)
        y = self.scale_base.unsqueeze(dim=0) * base + self.scale_sp.unsqueeze(dim=0) * y
        y = self.mask.unsqueeze(dim=0) * y
        postacts = y.clone().reshape(batch, self.out_dim, self.in_dim)
        y = torch.sum(y.reshape(batch, self.out_dim, self.in_dim), dim=2)
        return y, preacts, postacts, postspline

layer = KANLayer(in_dim=3, out_dim=2, num=5, k=3)
x = torch.rand(64, 3) * 2 - 1
'''
CELL = '''
y, preacts, postacts, postspline = layer(x)
basis0 = B_batch(x.permute(1, 0), layer.grid.narrow(0, 0, 3), k=0)
print(basis0.dtype, y.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
