"""PINA `RBAPINN` trained with `accelerator="cuda"`: the residual-based weights dict still points at the CPU buffers.

Source: https://github.com/PINA-org/PINA/issues/613
Training `RBAPINN(problem=Poisson(), model=FeedForward(2, 1, 64, 2))` with
`Trainer(solver, accelerator="cuda", devices=1)` failed with a device mismatch: "the residual-based
weight buffers are not properly moved to the correct device". The solver registers one buffer per
condition in `__init__` (`register_buffer(f"weight_{cond}", ...)`) and keeps references to them in the
plain dict `self.weights`; when Lightning moves the module, `Module.to()` replaces the buffers, but the
dict still holds the old CPU tensors, which then meet the on-device residuals. The fix (by the
reporter) re-binds `self.weights[cond] = getattr(self, f"weight_{cond}")` once the solver is on its
device (`on_train_start`). Stand-ins: the solver as a plain `nn.Module` (Lightning's `self.device` is
the CPU at construction), a two-condition Poisson problem on the unit square, FeedForward, one
`training_step` on a full batch; logging dropped; the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch

device = torch.device("meta")          # Trainer(..., accelerator="cuda", devices=1)

class FeedForward(torch.nn.Module):
    def __init__(self, input_dimensions, output_dimensions, inner_size=20, n_layers=2, func=torch.nn.Tanh):
        super().__init__()
        sizes = [input_dimensions] + [inner_size] * n_layers + [output_dimensions]
        layers = []
        for i in range(len(sizes) - 2):
            layers += [torch.nn.Linear(sizes[i], sizes[i + 1]), func()]
        layers.append(torch.nn.Linear(sizes[-2], sizes[-1]))
        self.model = torch.nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)

def laplacian(u, x):
    grad_u = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]
    lap = 0
    for d in range(x.shape[1]):
        lap = lap + torch.autograd.grad(grad_u[:, d:d + 1], x, torch.ones_like(u), create_graph=True)[0][:, d:d + 1]
    return lap

def laplace_equation(input_, output_):
    force = torch.pi ** 2 * torch.sin(torch.pi * input_[:, 0:1]) * torch.sin(torch.pi * input_[:, 1:2])
    return laplacian(output_, input_) + force

def fixed_value(input_, output_):
    return output_

class Poisson2DSquareProblem:
    """Stand-in for pina.problem.zoo.Poisson2DSquareProblem after problem.discretise_domain(n=50, mode='grid')."""
    def __init__(self, n=10):
        g = torch.linspace(0, 1, n)
        xx, yy = torch.meshgrid(g, g, indexing="ij")
        interior = torch.stack([xx.flatten(), yy.flatten()], dim=1)
        edge = torch.cat([torch.stack([g, torch.zeros(n)], 1), torch.stack([g, torch.ones(n)], 1),
                          torch.stack([torch.zeros(n), g], 1), torch.stack([torch.ones(n), g], 1)])
        self.collected_data = {"boundary": {"input": edge}, "D": {"input": interior}}
        self.equations = {"boundary": fixed_value, "D": laplace_equation}

class RBAPINN(torch.nn.Module):
    """Stand-in for pina.solver.RBAPINN (a LightningModule), as in the reported version."""
    def __init__(self, problem, model, eta=0.001, gamma=0.999):
        super().__init__()
        self.problem = problem
        self.model = model
        self.eta = eta
        self.gamma = gamma
        # Initialize the weight of each point to 0
        self.weights = {}
        for cond, data in self.problem.collected_data.items():
            buffer_tensor = torch.zeros((len(data["input"]), 1), device=self.device)
            self.register_buffer(f"weight_{cond}", buffer_tensor)
            self.weights[cond] = getattr(self, f"weight_{cond}")
        self._reduction = "mean"
        self._loss_fn = torch.nn.MSELoss(reduction="none")

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, x):
        return self.model(x)

    def optimization_cycle(self, batch):
        residuals = {}
        for cond, data in batch:
            samples = data["input"]
            residual = self.problem.equations[cond](samples, self.forward(samples))
            residuals[cond] = self._loss_fn(residual, torch.zeros_like(residual))
        return residuals

    def training_step(self, batch, batch_idx):
        residuals = self.optimization_cycle(batch)
        self._update_weights(batch, batch_idx, residuals)
        losses = {}
        for cond, res in residuals.items():
            len_res = len(res)
            idx = torch.arange(batch_idx * len_res, (batch_idx + 1) * len_res,
                               device=self.weights[cond].device) % len(self.problem.collected_data[cond]["input"])
            losses[cond] = (res * self.weights[cond][idx]).mean()
        return sum(losses.values())

    def _update_weights(self, batch, batch_idx, residuals):
        for cond, data in batch:
            res = residuals[cond]
            res_abs = torch.linalg.vector_norm(res, ord=2, dim=1, keepdim=True)
            r_norm = (self.eta * res_abs) / (res_abs.max() + 1e-12)
            len_pts = len(data["input"])
            idx = torch.arange(batch_idx * len_pts, (batch_idx + 1) * len_pts,
                               device=self.weights[cond].device) % len(self.problem.collected_data[cond]["input"])
            weights = self.weights[cond]
            update = self.gamma * weights[idx] + r_norm
            weights[idx] = update.detach()

problem = Poisson2DSquareProblem()
model = FeedForward(2, 1, 64, 2)
solver = RBAPINN(problem=problem, model=model)
# what Trainer(solver, accelerator="cuda").train() does before the first step: move the module and the batch
solver = solver.to(device)
batch = [(cond, {"input": data["input"].to(device).requires_grad_()})
         for cond, data in problem.collected_data.items()]
'''
CELL = '''
loss = solver.training_step(batch, 0)
loss.backward()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["solver.weights"]
FIX = "namespace"
REFERENCE_FIX = '''
for cond in solver.problem.collected_data:
    solver.weights[cond] = getattr(solver, f"weight_{cond}")
'''
REFERENCE_EDIT = None
CLEAN = False
