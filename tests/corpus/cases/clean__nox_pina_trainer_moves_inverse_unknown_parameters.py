"""Look-alike: PINA's Trainer re-wraps the inverse problem's `unknown_parameters` on the accelerator before the solver builds its optimizer.

Source: https://github.com/PINA-org/PINA/blob/master/pina/trainer.py
`InverseProblem` keeps `unknown_parameters` as a plain dict of `nn.Parameter`s created on the CPU, outside
any module. `Trainer.__init__` calls `_move_to_device`, which does
`pb.unknown_parameters[key] = torch.nn.Parameter(pb.unknown_parameters[key].data.to(device))` for every
key; the solver reads the same dict (`self._params = problem.unknown_parameters`) and only builds its
optimizer over them in `configure_optimizers` at fit time, so both the forcing term and the optimizer
see the on-device parameters. Reduced: the inverse Poisson tutorial with PINA 0.1-style
InverseProblem/PINN/Trainer stand-ins, one Adam step; the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from itertools import chain

class InverseProblem:
    """Stand-in for pina.problem.InverseProblem."""
    def __init__(self):
        self.unknown_parameters = {}
        for var in self.unknown_variables:
            range_var = self.unknown_parameter_domain[var]
            tensor_var = torch.rand(1, requires_grad=True) * range_var[1] + range_var[0]
            self.unknown_parameters[var] = torch.nn.Parameter(tensor_var)

    @property
    def unknown_variables(self):
        return list(self.unknown_parameter_domain)

def laplacian(u, x):
    grad_u = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]
    lap = 0
    for d in range(x.shape[1]):
        lap = lap + torch.autograd.grad(grad_u[:, d:d + 1], x, torch.ones_like(u), create_graph=True)[0][:, d:d + 1]
    return lap

def laplace_equation(input_, output_, params_):
    force_term = torch.exp(- 2 * (input_[:, 0:1] - params_["mu1"]) ** 2
                           - 2 * (input_[:, 1:2] - params_["mu2"]) ** 2)
    delta_u = laplacian(output_, input_)
    return delta_u - force_term

class Poisson(InverseProblem):
    output_variables = ["u"]
    unknown_parameter_domain = {"mu1": [-1, 1], "mu2": [-1, 1]}

    def __init__(self):
        super().__init__()
        self.input_pts = {"D": torch.rand(100, 2) * 4 - 2, "data": torch.rand(50, 2) * 4 - 2}
        self.output_pts = {"data": torch.randn(50, 1)}

class PINN(torch.nn.Module):
    """Stand-in for pina.solvers.PINN (a LightningModule)."""
    def __init__(self, problem, model, optimizer=torch.optim.Adam, lr=0.005):
        super().__init__()
        self.problem = problem
        self._neural_net = model
        self._params = self.problem.unknown_parameters
        self._optimizer, self._lr = optimizer, lr

    def forward(self, x):
        return self._neural_net(x)

    def configure_optimizers(self):
        return self._optimizer(chain(self._neural_net.parameters(), self._params.values()), lr=self._lr)

    def training_step(self, batch):
        x = batch["D"]
        loss_phys = laplace_equation(x, self.forward(x), self._params).pow(2).mean()
        loss_data = (self.forward(batch["data"]) - batch["data_out"]).pow(2).mean()
        return loss_phys + loss_data

class Trainer:
    """Stand-in for pina.Trainer: moves the solver, the sampled points and the problem's unknown parameters."""
    def __init__(self, solver, max_epochs=1, device="meta"):     # accelerator='gpu' in the tutorial
        self.solver = solver.to(device)
        self.max_epochs = max_epochs
        self._move_to_device(device)
        pb = solver.problem
        self._batch = {"D": pb.input_pts["D"].to(device).requires_grad_(),
                       "data": pb.input_pts["data"].to(device),
                       "data_out": pb.output_pts["data"].to(device)}

    def _move_to_device(self, device):
        # move parameters to device
        pb = self.solver.problem
        if hasattr(pb, "unknown_parameters"):
            for key in pb.unknown_parameters:
                pb.unknown_parameters[key] = torch.nn.Parameter(pb.unknown_parameters[key].data.to(device))

    def train(self):
        optimizer = self.solver.configure_optimizers()
        for _ in range(self.max_epochs):
            optimizer.zero_grad()
            loss = self.solver.training_step(self._batch)
            loss.backward()
            optimizer.step()
        return loss

class FeedForward(torch.nn.Module):
    def __init__(self, input_dimensions, output_dimensions, layers):
        super().__init__()
        sizes = [input_dimensions] + layers + [output_dimensions]
        mods = []
        for i in range(len(sizes) - 2):
            mods += [torch.nn.Linear(sizes[i], sizes[i + 1]), torch.nn.Softplus()]
        mods.append(torch.nn.Linear(sizes[-2], sizes[-1]))
        self.model = torch.nn.Sequential(*mods)

    def forward(self, x):
        return self.model(x)

problem = Poisson()
model = FeedForward(layers=[20, 20, 20], output_dimensions=1, input_dimensions=2)
pinn = PINN(problem, model, optimizer=torch.optim.Adam, lr=0.005)
trainer = Trainer(solver=pinn, max_epochs=1, device="meta")
'''
CELL = '''
trainer.train()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
