"""Look-alike: a PINN whose loss functions sample collocation points on the CPU with `requires_grad=True` and move them with `.to(device)` before the network sees them.

Source: https://github.com/pengjiaqiang86/AI4S
The repository's PINN example (PDE u_xx - u_yyyy = (2 - x^2) e^{-y} with boundary terms) writes every
loss term as `x = torch.rand(n, 1, requires_grad=True).to(device=device)`, builds the condition from
those points and differentiates the network output with `torch.autograd.grad(..., create_graph=True)`.
The points are created on the CPU but moved before use, and the derivatives are taken w.r.t. the
moved tensors, which are in the graph, so training runs on the device. Reduced: the interior term and
two boundary terms of one training step's loss (with the PDE derivatives); the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class MLP(nn.Module):
    def __init__(self) -> None:
        super(MLP, self).__init__()
        self.model = torch.nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(),
                                         nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
    def forward(self, x):
        return self.model(x)

mse_loss = nn.MSELoss()

def gradient(u, x, order=1):
    if order == 1:
        return torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True, only_inputs=True)[0]
    else:
        return gradient(gradient(u, x), x, order - 1)

def loss_interior(model, n, device):
    x = torch.rand(n, 1, requires_grad=True).to(device=device)
    y = torch.rand(n, 1, requires_grad=True).to(device=device)
    cond = (2 - x ** 2) * torch.exp(-y)
    uxy = model(torch.cat([x, y], dim=1))
    return mse_loss(gradient(uxy, x, 2) - gradient(uxy, y, 4), cond)

def loss_down(model, n, device):
    x = torch.rand(n, 1, requires_grad=True).to(device=device)
    y = torch.zeros_like(x, requires_grad=True).to(device=device)
    cond = x ** 2
    uxy = model(torch.cat([x, y], dim=1))
    return mse_loss(uxy, cond)

def loss_left(model, n, device):
    y = torch.rand(n, 1, requires_grad=True).to(device=device)
    x = torch.zeros_like(y, requires_grad=True).to(device=device)
    cond = torch.zeros_like(x)
    uxy = model(torch.cat([x, y], dim=1))
    return mse_loss(uxy, cond)

device = torch.device("meta")          # "cuda" on the author's machine
model = MLP().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
n = 64
'''
CELL = '''
optimizer.zero_grad()
loss = loss_interior(model, n, device) + loss_down(model, n, device) + loss_left(model, n, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
