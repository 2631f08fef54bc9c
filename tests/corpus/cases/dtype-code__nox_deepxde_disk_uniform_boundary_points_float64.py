"""DeepXDE (PyTorch backend) on a Disk with uniform sampling: `Disk.uniform_boundary_points` returns float64 points for a float32 network.

Source: https://github.com/lululxvi/deepxde/pull/2069
The PR reports that several geometries "created NumPy arrays via np.linspace, np.full, np.zeros, np.ones
without specifying dtype, defaulting to float64", which with the float32 network gives "mat1 and mat2
must have the same dtype, but got Double and Float" in PyTorch (NumPy >= 2; the PR's script prints
`uniform_boundary_points dtype: float64`). For `Disk`, `theta = np.linspace(0, 2 * np.pi, ...)` is
float64, so the boundary points are float64 and `PDE.train_points` stacks them with the float32 domain
points into a float64 training set. Fix: `dtype=config.real(np)` in those array constructors.
Stand-ins: `config.real`, Disk, data.PDE (uniform train distribution), FNN and a one-step torch
`Model.train`; the PDE residual is the Laplace operator via autograd.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch

class config:
    @staticmethod
    def real(lib):
        return {np: np.float32, torch: torch.float32}[lib]     # DeepXDE default float32

class Disk:
    """Stand-in for deepxde.geometry.Disk."""
    def __init__(self, center, radius):
        self.center = np.array(center, dtype=config.real(np))
        self.radius = radius
        self.dim = 2

    def random_points(self, n, random="pseudo"):
        rng = np.random.rand(n, 2).astype(config.real(np))       # deepxde sampler: config.real dtype
        r, theta = rng[:, 0], 2 * np.pi * rng[:, 1]
        x, y = np.cos(theta), np.sin(theta)
        return self.radius * (np.sqrt(r) * np.vstack((x, y))).T + self.center

    def uniform_points(self, n, boundary=True):
        return self.random_points(n)                             # Geometry fallback for Disk

    def uniform_boundary_points(self, n):
        theta = np.linspace(0, 2 * np.pi, num=n, endpoint=False)
        X = np.vstack((np.cos(theta), np.sin(theta))).T
        return self.radius * X + self.center

class PDE:
    """Stand-in for deepxde.data.PDE (train points only)."""
    def __init__(self, geometry, pde, bcs, num_domain=0, num_boundary=0, train_distribution="Hammersley"):
        self.geom, self.pde, self.bcs = geometry, pde, bcs
        self.num_domain, self.num_boundary = num_domain, num_boundary
        self.train_distribution = train_distribution
        self.train_x = self.train_points()

    def train_points(self):
        X = np.empty((0, self.geom.dim), dtype=config.real(np))
        if self.num_domain > 0:
            X = self.geom.uniform_points(self.num_domain, boundary=False)
        if self.num_boundary > 0:
            tmp = self.geom.uniform_boundary_points(self.num_boundary)
            X = np.vstack((tmp, X))
        return X

    def losses(self, outputs, inputs):
        f = self.pde(inputs, outputs)
        return [torch.mean(f ** 2)]

class FNN(torch.nn.Module):
    def __init__(self, layer_sizes, activation, kernel_initializer):
        super().__init__()
        self.linears = torch.nn.ModuleList(
            [torch.nn.Linear(layer_sizes[i - 1], layer_sizes[i], dtype=config.real(torch))
             for i in range(1, len(layer_sizes))])

    def forward(self, x):
        for linear in self.linears[:-1]:
            x = torch.tanh(linear(x))
        return self.linears[-1](x)

class Model:
    def __init__(self, data, net):
        self.data, self.net = data, net

    def compile(self, optimizer, lr=None):
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def train(self, iterations=1):
        for _ in range(iterations):
            inputs = torch.as_tensor(self.data.train_x)
            inputs.requires_grad_()
            outputs = self.net(inputs)
            loss = torch.sum(torch.stack(self.data.losses(outputs, inputs)))
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss

def pde(x, y):
    dy_x = torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]
    dy_xx = torch.autograd.grad(dy_x[:, 0:1], x, torch.ones_like(y), create_graph=True)[0][:, 0:1]
    dy_yy = torch.autograd.grad(dy_x[:, 1:2], x, torch.ones_like(y), create_graph=True)[0][:, 1:2]
    return -dy_xx - dy_yy - 1

geom = Disk([0, 0], 1)
net = FNN([2] + [20] * 3 + [1], "tanh", "Glorot normal")
'''
CELL = '''
data = PDE(geom, pde, [], num_domain=200, num_boundary=40, train_distribution="uniform")
model = Model(data, net)
model.compile("adam", lr=1e-3)
loss = model.train(iterations=2)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type Float but found Double")
CULPRITS = ["geom"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("theta = np.linspace(0, 2 * np.pi, num=n, endpoint=False)",
                  "theta = np.linspace(0, 2 * np.pi, num=n, endpoint=False, dtype=config.real(np))")
CLEAN = False
