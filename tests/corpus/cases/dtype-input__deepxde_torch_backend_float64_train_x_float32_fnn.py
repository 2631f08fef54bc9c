"""DeepXDE on the PyTorch backend: float64 training points go through `torch.as_tensor` into a float32 FNN.

Source: https://github.com/lululxvi/deepxde/issues/558
"A serious error on the pytorch backend": in `Model.outputs_losses` (`self.net.inputs =
torch.as_tensor(inputs)`, then `self.net(self.net.inputs)`) the first `Linear` raised "expected
scalar type Float but found Double" in almost every example; the reporter's "default type is
float64" while the network's parameters were float32, and he patched `model.py` with `.float()`.
The maintainer: "All the data should be converted to the correct dtype at the first place when they
are generated". Stand-in: `PDE` data whose sampled points are float64 numpy arrays, DeepXDE's FNN,
and the torch `Model.compile`/`train` reduced to one Adam step on the PDE residual.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch

class Rectangle:
    def __init__(self, xmin, xmax):
        self.xmin, self.xmax = np.array(xmin), np.array(xmax)
    def random_points(self, n):
        return self.xmin + np.random.rand(n, 2) * (self.xmax - self.xmin)   # float64, the "default type"

class PDE:
    def __init__(self, geometry, pde, bcs, num_domain=0, num_boundary=0, num_test=None):
        self.geom, self.pde, self.bcs = geometry, pde, bcs
        self.train_x = geometry.random_points(num_domain + num_boundary)
        self.test_x = geometry.random_points(num_test or num_domain)
    def losses(self, targets, outputs, loss_fn, inputs, model):
        f = self.pde(inputs, outputs)
        return [loss_fn(f, torch.zeros_like(f))]

class FNN(torch.nn.Module):
    def __init__(self, layer_sizes, activation, kernel_initializer):
        super().__init__()
        self.activation = torch.tanh
        self.linears = torch.nn.ModuleList()
        for i in range(1, len(layer_sizes)):
            self.linears.append(torch.nn.Linear(layer_sizes[i - 1], layer_sizes[i], dtype=torch.float32))
            torch.nn.init.xavier_normal_(self.linears[-1].weight)
    def forward(self, inputs):
        x = inputs
        for linear in self.linears[:-1]:
            x = self.activation(linear(x))
        return self.linears[-1](x)

class Model:
    def __init__(self, data, net):
        self.data, self.net = data, net
    def compile(self, optimizer, lr=None):
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)
        def outputs_losses(training, inputs, targets):
            self.net.train(mode=training)
            self.net.inputs = torch.as_tensor(inputs)
            self.net.inputs.requires_grad_()
            outputs_ = self.net(self.net.inputs)
            losses = self.data.losses(targets, outputs_, torch.nn.functional.mse_loss, self.net.inputs, self)
            return outputs_, torch.stack(losses)
        self.outputs_losses = outputs_losses
    def train(self, iterations=None):
        for _ in range(iterations):
            self.opt.zero_grad()
            _, losses = self.outputs_losses(True, self.data.train_x, None)
            torch.sum(losses).backward()
            self.opt.step()
        return losses

def pde(x, y):
    dy_x = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]
    dy_xx = torch.autograd.grad(dy_x[:, 0:1], x, grad_outputs=torch.ones_like(y), create_graph=True)[0][:, 0:1]
    dy_yy = torch.autograd.grad(dy_x[:, 1:2], x, grad_outputs=torch.ones_like(y), create_graph=True)[0][:, 1:2]
    return -dy_xx - dy_yy - 1

geom = Rectangle([-1, -1], [1, 1])
data = PDE(geom, pde, [], num_domain=120, num_boundary=16, num_test=150)
net = FNN([2] + [50] * 4 + [1], "tanh", "Glorot uniform")
model = Model(data, net)
model.compile("adam", lr=0.001)
'''
CELL = '''
losshistory = model.train(iterations=3)
'''
EXPECT_ERROR = ("expected scalar type Float but found Double", "mat1 and mat2 must have the same dtype",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["data.train_x"]
FIX = "namespace"
REFERENCE_FIX = '''
data.train_x = data.train_x.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
