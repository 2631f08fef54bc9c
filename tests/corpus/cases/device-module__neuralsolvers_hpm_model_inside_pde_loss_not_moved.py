"""NeuralSolvers PINN with a hidden-physics model: `PINN(..., use_gpu=True)` moves only the solution network; the `hpm_model` inside `HPMLoss` stays on the CPU.

Source: https://github.com/Photon-AI-Research/NeuralSolvers/issues/32
"HPM does not support cuda": the reporter points at `PINNFramework/PINN.py`, where `__init__` does
`self.model.cuda()` (and sets `self.dtype = torch.cuda.FloatTensor` for the batches) but the
`HPMLoss(dataset, name, hpm_input, hpm_model)` passed as `pde_loss` keeps its `hpm_model` wherever
the user built it: "I feel like there should be a line sending the model to cuda if needed." The
maintainer: "At the moment the framework is designed such that the model has to be moved by the
user." Stand-in: `PINN`, `HPMLoss`, `InitialCondition` and the fit loop reduced to one batch (the
batches moved with `.to(device)` instead of `.type(self.dtype)`); the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import grad

device = torch.device("meta")               # torch.cuda in PINN.__init__ with use_gpu=True

class InitialCondition:
    def __init__(self, dataset, name="Initial Condition", weight=1.0):
        self.dataset, self.name, self.weight = dataset, name, weight
    def __call__(self, x, model, gt_y):
        return self.weight * torch.mean((model(x) - gt_y) ** 2)

class HPMLoss:
    def __init__(self, dataset, name, hpm_input, hpm_model, norm="L2", weight=1.):
        self.dataset, self.name, self.weight = dataset, name, weight
        self.hpm_input = hpm_input
        self.hpm_model = hpm_model
    def norm(self, a, b):
        return torch.mean((a - b) ** 2)
    def __call__(self, x, model, **kwargs):
        x.requires_grad = True
        prediction_u = model(x)
        hpm_input = self.hpm_input(x, prediction_u)
        time_derivative = hpm_input[:, -1]
        input = hpm_input[:, :-1]
        hpm_output = self.hpm_model(input)
        return self.weight * self.norm(time_derivative, hpm_output.squeeze(-1))

class PINN(nn.Module):
    def __init__(self, model, input_dimension, output_dimension, pde_loss, initial_condition, boundary_condition=None, use_gpu=True):
        super().__init__()
        self.use_gpu = use_gpu
        self.model = model
        if self.use_gpu:
            self.model.to(device)
        self.input_dimension, self.output_dimension = input_dimension, output_dimension
        self.pde_loss = pde_loss
        self.is_hpm = isinstance(pde_loss, HPMLoss)
        self.initial_condition = initial_condition
    def pinn_loss(self, training_data):
        ic_x, ic_y = training_data[self.initial_condition.name]
        loss = self.initial_condition(ic_x.to(device), self.model, gt_y=ic_y.to(device))
        pde_x = training_data[self.pde_loss.name].to(device)
        return loss + self.pde_loss(pde_x, self.model)
    def fit(self, epochs, optimizer="Adam", learning_rate=1e-3):
        params = list(self.model.parameters())
        if self.is_hpm:
            params += list(self.pde_loss.hpm_model.parameters())
        optim = torch.optim.Adam(params, lr=learning_rate)
        for epoch in range(epochs):
            training_data = {self.initial_condition.name: self.initial_condition.dataset,
                             self.pde_loss.name: self.pde_loss.dataset}
            optim.zero_grad()
            loss = self.pinn_loss(training_data)
            loss.backward()
            optim.step()

def derivatives(x, u):
    grads = grad(u, x, torch.ones_like(u), create_graph=True)[0]
    u_x, u_t = grads[:, 0:1], grads[:, 1:2]
    u_xx = grad(u_x, x, torch.ones_like(u_x), create_graph=True)[0][:, 0:1]
    return torch.cat([x, u, u_x, u_xx, u_t], dim=1)

class MLP(nn.Module):
    def __init__(self, input_size, output_size, hidden_size, num_hidden):
        super().__init__()
        layers = [nn.Linear(input_size, hidden_size), nn.Tanh()]
        for _ in range(num_hidden - 1):
            layers += [nn.Linear(hidden_size, hidden_size), nn.Tanh()]
        self.net = nn.Sequential(*layers, nn.Linear(hidden_size, output_size))
    def forward(self, x):
        return self.net(x)

ic_dataset = (torch.rand(64, 2) * torch.tensor([1.0, 0.0]), torch.rand(64, 1))
pde_dataset = torch.rand(256, 2)
model = MLP(input_size=2, output_size=1, hidden_size=50, num_hidden=3)
hpm_model = MLP(input_size=5, output_size=1, hidden_size=50, num_hidden=2)
initial_condition = InitialCondition(dataset=ic_dataset)
hpm_loss = HPMLoss(pde_dataset, "HPM_loss", derivatives, hpm_model)
pinn = PINN(model, 2, 1, hpm_loss, initial_condition, boundary_condition=None, use_gpu=True)
'''
CELL = '''
pinn.fit(1, "Adam", 1e-3)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["hpm_model"]
FIX = "namespace"
REFERENCE_FIX = '''
hpm_model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
