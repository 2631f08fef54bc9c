"""pykan moons classification on an accelerator: `KAN(...).to(device)` moves the parameters, but each KANLayer keeps `device="cpu"` and builds its forward tensors there.

Source: https://github.com/KindXiaoming/pykan/issues/9
The user put the moons dataset on `mps` and ran `model = KAN(width=[2,1], grid=3, k=3).to(torch.float32).to(device)`,
`model.train(dataset, ..., device=device)`: "Expected all tensors to be on the same device, mps:0 and cpu".
KAN 0.0.x stores the constructor's `device` ("cpu" by default) in every KANLayer and forward uses it for
`torch.ones(out_dim, device=self.device)` and B_batch; `Module.to()` does not touch that attribute. The
model has to be created with the device as well (`KAN(..., device=device)`). Stand-in: pykan 0.0.x
KAN/KANLayer/B_batch; the accelerator is simulated as cuda:0; `train` reduced to the accuracy metrics of
its first step.
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

def make_moons(n_samples=1000, noise=0.1, random_state=None):
    """sklearn.datasets.make_moons stand-in: float64 X, int64 y."""
    rng = np.random.RandomState(random_state)
    n_out, n_in = n_samples // 2, n_samples - n_samples // 2
    outer = np.stack([np.cos(np.linspace(0, np.pi, n_out)), np.sin(np.linspace(0, np.pi, n_out))], 1)
    inner = np.stack([1 - np.cos(np.linspace(0, np.pi, n_in)), 1 - np.sin(np.linspace(0, np.pi, n_in)) - 0.5], 1)
    X = np.vstack([outer, inner]) + rng.normal(scale=noise, size=(n_samples, 2))
    y = np.hstack([np.zeros(n_out, dtype=np.int64), np.ones(n_in, dtype=np.int64)])
    idx = rng.permutation(n_samples)
    return X[idx], y[idx]

def _train(self, dataset, opt="LBFGS", steps=100, metrics=None, device="cpu"):
    # reduced: the metrics pykan's train evaluates after each step
    results = {}
    with torch.no_grad():
        self.forward(dataset["train_input"].to(device))        # update_grid_from_samples
        for m in metrics or []:
            results[m.__name__] = [m()]
    return results
KAN.train = _train

device = torch.device("cuda:0")   # the user: torch.device("mps")
dataset = {}
train_input, train_label = make_moons(n_samples=1000, noise=0.1, random_state=None)
test_input, test_label = make_moons(n_samples=1000, noise=0.1, random_state=None)
dataset['train_input'] = torch.from_numpy(train_input).to(torch.float32).to(device)
dataset['test_input'] = torch.from_numpy(test_input).to(torch.float32).to(device)
dataset['train_label'] = torch.from_numpy(train_label[:, None]).to(torch.float32).to(device)
dataset['test_label'] = torch.from_numpy(test_label[:, None]).to(torch.float32).to(device)

model = KAN(width=[2, 1], grid=3, k=3).to(torch.float32).to(device)

def train_acc():
    return torch.mean((torch.round(model(dataset['train_input'])) == dataset['train_label']).float())

def test_acc():
    return torch.mean((torch.round(model(dataset['test_input'])) == dataset['test_label']).float())
'''
CELL = '''
results = model.train(dataset, opt="LBFGS", steps=20, metrics=(train_acc, test_acc), device=device);
'''
EXPECT_ERROR = ('Expected all tensors to be on the same device',)
CULPRITS = ['model']
FIX = "namespace"
REFERENCE_FIX = '''
model = KAN(width=[2, 1], grid=3, k=3, device=device).to(torch.float32).to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
