"""pykan classification tutorial: make_moons gives float64 arrays, the KAN's spline coefficients are float32.

Source: https://github.com/KindXiaoming/pykan/issues/113
Running tutorials/Example_3_classfication.ipynb, `model.train(dataset, opt="LBFGS", steps=20,
metrics=(train_acc, test_acc))` failed at step 0 with "expected scalar type Double but found
Float": `dataset['train_input'] = torch.from_numpy(train_input)` keeps make_moons' float64, and
`coef2curve` einsums the float32 `coef` with the float64 B-splines of the inputs. The tutorial was
fixed by casting the dataset tensors to `torch.get_default_dtype()` (float32). Stand-in: a numpy
make_moons (no sklearn), KANLayer/B_batch/coef2curve as in pykan 0.0.x, `update_grid_from_samples`
reduced to its forward pass, and `KAN.train` reduced to its LBFGS loop (torch.optim.LBFGS).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

def make_moons(n_samples=1000, shuffle=True, noise=0.1, random_state=None):
    """sklearn.datasets.make_moons stand-in: float64 X, int64 y."""
    rng = np.random.RandomState(random_state)
    n_out, n_in = n_samples // 2, n_samples - n_samples // 2
    outer = np.stack([np.cos(np.linspace(0, np.pi, n_out)), np.sin(np.linspace(0, np.pi, n_out))], 1)
    inner = np.stack([1 - np.cos(np.linspace(0, np.pi, n_in)),
                      1 - np.sin(np.linspace(0, np.pi, n_in)) - 0.5], 1)
    X = np.vstack([outer, inner]) + rng.normal(scale=noise, size=(n_samples, 2))
    y = np.hstack([np.zeros(n_out, dtype=np.int64), np.ones(n_in, dtype=np.int64)])
    if shuffle:
        idx = rng.permutation(n_samples)
        X, y = X[idx], y[idx]
    return X, y

def B_batch(x, grid, k=0, extend=True, device="cpu"):
    def extend_grid(grid, k_extend=0):
        h = (grid[:, [-1]] - grid[:, [0]]) / (grid.shape[1] - 1)
        for i in range(k_extend):
            grid = torch.cat([grid[:, [0]] - h, grid], dim=1)
            grid = torch.cat([grid, grid[:, [-1]] + h], dim=1)
        return grid.to(device)

    if extend:
        grid = extend_grid(grid, k_extend=k)
    grid = grid.unsqueeze(dim=2).to(device)
    x = x.unsqueeze(dim=1).to(device)
    if k == 0:
        value = (x >= grid[:, :-1]) * (x < grid[:, 1:])
    else:
        B_km1 = B_batch(x[:, 0], grid=grid[:, :, 0], k=k - 1, extend=False, device=device)
        value = (x - grid[:, :-(k + 1)]) / (grid[:, k:-1] - grid[:, :-(k + 1)]) * B_km1[:, :-1] + (
            grid[:, k + 1:] - x) / (grid[:, k + 1:] - grid[:, 1:(-k)]) * B_km1[:, 1:]
    return value

def coef2curve(x_eval, grid, coef, k, device="cpu"):
    # x_eval: (size, batch), grid: (size, grid), coef: (size, coef)
    y_eval = torch.einsum("ij,ijk->ik", coef, B_batch(x_eval, grid, k, device=device))
    return y_eval

class KANLayer(nn.Module):
    def __init__(self, in_dim=3, out_dim=2, num=5, k=3, noise_scale=0.1, device="cpu"):
        super().__init__()
        self.size = size = out_dim * in_dim
        self.out_dim, self.in_dim, self.num, self.k, self.device = out_dim, in_dim, num, k, device
        self.grid = nn.Parameter(torch.einsum("i,j->ij", torch.ones(size),
                                              torch.linspace(-1, 1, steps=num + 1)), requires_grad=False)
        self.coef = nn.Parameter(noise_scale / num * torch.randn(size, num + k))
        self.scale_base = nn.Parameter(torch.ones(size))
        self.scale_sp = nn.Parameter(torch.ones(size))
        self.mask = nn.Parameter(torch.ones(size), requires_grad=False)
        self.base_fun = nn.SiLU()
        self.weight_sharing = torch.arange(size)

    def forward(self, x):
        batch = x.shape[0]
        x = torch.einsum("ij,k->ikj", x, torch.ones(self.out_dim, device=self.device)).reshape(
            batch, self.size).permute(1, 0)
        preacts = x.permute(1, 0).clone().reshape(batch, self.out_dim, self.in_dim)
        base = self.base_fun(x).permute(1, 0)
        y = coef2curve(x_eval=x, grid=self.grid[self.weight_sharing],
                       coef=self.coef[self.weight_sharing], k=self.k, device=self.device)
        y = y.permute(1, 0)
        postspline = y.clone().reshape(batch, self.out_dim, self.in_dim)
        y = self.scale_base.unsqueeze(dim=0) * base + self.scale_sp.unsqueeze(dim=0) * y
        y = self.mask[None, :] * y
        postacts = y.clone().reshape(batch, self.out_dim, self.in_dim)
        y = torch.sum(y.reshape(batch, self.out_dim, self.in_dim), dim=2)
        return y, preacts, postacts, postspline

class KAN(nn.Module):
    def __init__(self, width=None, grid=3, k=3, noise_scale=0.1, device="cpu"):
        super().__init__()
        self.width, self.depth = width, len(width) - 1
        self.act_fun = nn.ModuleList([KANLayer(width[l], width[l + 1], num=grid, k=k,
                                               noise_scale=noise_scale, device=device)
                                      for l in range(self.depth)])
        self.acts_scale = []

    def forward(self, x):
        self.acts_scale = []
        for l in range(self.depth):
            x, preacts, postacts, postspline = self.act_fun[l](x)
            self.acts_scale.append(torch.mean(torch.abs(postacts), dim=0))
        return x

    def update_grid_from_samples(self, x):
        # (reduced: pykan refits every layer's grid/coef from these activations)
        with torch.no_grad():
            self.forward(x)

    def train(self, dataset, opt="LBFGS", steps=100, lr=1.0, loss_fn=None, metrics=None,
              update_grid=True, grid_update_num=10, stop_grid_update_step=50, device="cpu"):
        if loss_fn is None:
            loss_fn = loss_fn_eval = lambda x, y: torch.mean((x - y) ** 2)
        else:
            loss_fn = loss_fn_eval = loss_fn
        grid_update_freq = int(stop_grid_update_step / grid_update_num)
        optimizer = torch.optim.LBFGS(self.parameters(), lr=lr, history_size=10,
                                      line_search_fn="strong_wolfe")
        results = {"train_loss": [], "test_loss": []}
        if metrics is not None:
            for m in metrics:
                results[m.__name__] = []
        batch_size = dataset["train_input"].shape[0]
        batch_size_test = dataset["test_input"].shape[0]
        state = {}

        def closure():
            optimizer.zero_grad()
            pred = self.forward(dataset["train_input"][train_id].to(device))
            state["train_loss"] = loss_fn(pred, dataset["train_label"][train_id].to(device))
            state["train_loss"].backward()
            return state["train_loss"]

        for _ in range(steps):
            train_id = np.random.choice(dataset["train_input"].shape[0], batch_size, replace=False)
            test_id = np.random.choice(dataset["test_input"].shape[0], batch_size_test, replace=False)
            if _ % grid_update_freq == 0 and _ < stop_grid_update_step and update_grid:
                self.update_grid_from_samples(dataset["train_input"][train_id].to(device))
            optimizer.step(closure)
            test_loss = loss_fn_eval(self.forward(dataset["test_input"][test_id].to(device)),
                                     dataset["test_label"][test_id].to(device))
            if metrics is not None:
                for m in metrics:
                    results[m.__name__].append(m().item())
            results["train_loss"].append(torch.sqrt(state["train_loss"]).detach().numpy())
            results["test_loss"].append(torch.sqrt(test_loss).detach().numpy())
        return results

dataset = {}
train_input, train_label = make_moons(n_samples=1000, shuffle=True, noise=0.1, random_state=None)
test_input, test_label = make_moons(n_samples=1000, shuffle=True, noise=0.1, random_state=None)

dataset['train_input'] = torch.from_numpy(train_input)
dataset['test_input'] = torch.from_numpy(test_input)
dataset['train_label'] = torch.from_numpy(train_label[:, None])
dataset['test_label'] = torch.from_numpy(test_label[:, None])

model = KAN(width=[2, 1], grid=3, k=3)

def train_acc():
    return torch.mean((torch.round(model(dataset['train_input'])[:, 0]) == dataset['train_label'][:, 0]).float())

def test_acc():
    return torch.mean((torch.round(model(dataset['test_input'])[:, 0]) == dataset['test_label'][:, 0]).float())
'''
CELL = '''
results = model.train(dataset, opt="LBFGS", steps=20, metrics=(train_acc, test_acc))
results['train_acc'][-1], results['test_acc'][-1]
'''
EXPECT_ERROR = ("expected scalar type Float but found Double",
                "expected scalar type Double but found Float")
CULPRITS = ["dataset['train_input']", "dataset['test_input']"]
FIX = "namespace"
REFERENCE_FIX = '''
dtype = torch.get_default_dtype()
dataset['train_input'] = dataset['train_input'].type(dtype)
dataset['test_input'] = dataset['test_input'].type(dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
