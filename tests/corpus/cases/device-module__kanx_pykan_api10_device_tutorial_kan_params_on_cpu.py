"""pykan tutorial API_10_device: `KAN(..., device=device)` with a cuda dataset, but the KAN's parameters were never moved off the CPU.

Source: https://github.com/KindXiaoming/pykan/issues/41
Running tutorials/API_10_device.ipynb (`model = KAN(width=[4,2,1,1], grid=3, k=3, seed=0, device=device)`,
`dataset = create_dataset(f, n_var=4, train_num=3000, device=device)`, `model.train(...)`) raised
"cuda:0 and cpu" in einsum. KAN 0.0.x passes `device` to its layers, which use it for tensors made in
forward, but builds every Parameter on the CPU; the workaround given by the maintainer is
`model = KAN(...).to(device)`. Stand-in: pykan 0.0.x KAN/KANLayer/B_batch/create_dataset; `KAN.train`
reduced to its first step (`update_grid_from_samples` forward pass and the loss evaluation, no LBFGS).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
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

class KAN(nn.Module):
    def __init__(self, width=None, grid=3, k=3, noise_scale=0.1, noise_scale_base=0.1,
                 base_fun=torch.nn.SiLU(), bias_trainable=True, grid_eps=1.0, grid_range=[-1, 1],
                 sp_trainable=True, sb_trainable=True, device="cpu", seed=0):
        super().__init__()
        torch.manual_seed(seed)
        np.random.seed(seed)
        self.biases = []
        self.act_fun = []
        self.depth = len(width) - 1
        self.width = width
        for l in range(self.depth):
            sp_batch = KANLayer(in_dim=width[l], out_dim=width[l + 1], num=grid, k=k, noise_scale=noise_scale,
                                base_fun=base_fun, grid_eps=grid_eps, grid_range=grid_range,
                                sp_trainable=sp_trainable, sb_trainable=sb_trainable, device=device)
            self.act_fun.append(sp_batch)
            bias = nn.Linear(width[l + 1], 1, bias=False).requires_grad_(bias_trainable)
            bias.weight.data *= 0.
            self.biases.append(bias)
        self.biases = nn.ModuleList(self.biases)
        self.act_fun = nn.ModuleList(self.act_fun)
        self.grid = grid
        self.k = k
        self.base_fun = base_fun
        self.device = device

    def forward(self, x):
        self.acts = [x]
        self.spline_postacts = []
        for l in range(self.depth):
            x_numerical, preacts, postacts_numerical, postspline = self.act_fun[l](x)
            x = x_numerical
            x = x + self.biases[l].weight
            self.spline_postacts.append(postacts_numerical.detach())
            self.acts.append(x)
        return x

def _train(self, dataset, opt="LBFGS", steps=100, lamb=0., lamb_entropy=2., device="cuda:0"):
    # reduced: pykan's train starts with update_grid_from_samples (a forward pass) then evaluates losses
    results = {"train_loss": [], "test_loss": []}
    with torch.no_grad():
        self.forward(dataset["train_input"].to(device))
        train_loss = torch.mean((self.forward(dataset["train_input"].to(device)) - dataset["train_label"].to(device)) ** 2)
        test_loss = torch.mean((self.forward(dataset["test_input"].to(device)) - dataset["test_label"].to(device)) ** 2)
    results["train_loss"].append(train_loss)
    results["test_loss"].append(test_loss)
    return results
KAN.train = _train

def create_dataset(f, n_var=2, ranges=[-1, 1], train_num=1000, test_num=1000, device="cpu", seed=0):
    np.random.seed(seed)
    torch.manual_seed(seed)
    train_input = torch.rand(train_num, n_var) * (ranges[1] - ranges[0]) + ranges[0]
    test_input = torch.rand(test_num, n_var) * (ranges[1] - ranges[0]) + ranges[0]
    train_label = f(train_input)
    test_label = f(test_input)
    dataset = {}
    dataset["train_input"] = train_input.to(device)
    dataset["test_input"] = test_input.to(device)
    dataset["train_label"] = train_label.to(device)
    dataset["test_label"] = test_label.to(device)
    return dataset

device = torch.device("cuda:0")
model = KAN(width=[4, 2, 1, 1], grid=3, k=3, seed=0, device=device)
f = lambda x: torch.exp((torch.sin(torch.pi * (x[:, [0]] ** 2 + x[:, [1]] ** 2)) + torch.sin(torch.pi * (x[:, [2]] ** 2 + x[:, [3]] ** 2))) / 2)
dataset = create_dataset(f, n_var=4, train_num=3000, device=device)
'''
CELL = '''
model.train(dataset, opt="LBFGS", steps=50, lamb=5e-5, lamb_entropy=2.);
'''
EXPECT_ERROR = ('Expected all tensors to be on the same device',)
CULPRITS = ['model']
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
