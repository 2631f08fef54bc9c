"""Look-alike: PINA's `RBAPINN` keeps per-point weights in a plain dict of buffer references, re-bound in `on_train_start` after the device move.

Source: https://github.com/GiovanniCanali/PINA/blob/master/pina/solver/physics_informed_solver/rba_pinn.py
The fixed solver (the reporter's fix for PINA issue #613) still registers one buffer per condition
in `__init__` with `device=self.device` (the CPU) and mirrors them in the plain dict `self.weights`,
but its `on_train_start` hook moves each buffer's data to `self.device` and re-binds
`self.weights[cond] = weight_buf`, so by the first training step the dict, the indices
(`torch.arange(..., device=self.weights[cond].device)`) and the residuals are on the same device.
Reduced: the solver as a plain module, the Trainer as "move, call the hook, one full-batch step" on a
two-condition Poisson problem; the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "clean"
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
    """Stand-in for pina.solver.RBAPINN (a LightningModule), with the on_train_start hook."""
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

    def on_train_start(self):
        """Ensure the residual weight buffers registered in __init__ are on the computation device."""
        for cond in self.problem.collected_data.keys():
            weight_buf = getattr(self, f"weight_{cond}")
            weight_buf.data = weight_buf.data.to(self.device)
            self.weights[cond] = weight_buf

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

class Trainer:
    """Stand-in for pina.Trainer(solver, accelerator="cuda", devices=1, batch_size=None)."""
    def __init__(self, solver, device):
        self.solver, self.device = solver, device

    def train(self):
        solver = self.solver.to(self.device)            # Lightning moves the module ...
        solver.on_train_start()                         # ... then calls the hook
        batch = [(cond, {"input": data["input"].to(self.device).requires_grad_()})
                 for cond, data in solver.problem.collected_data.items()]
        loss = solver.training_step(batch, 0)
        loss.backward()
        return loss

problem = Poisson2DSquareProblem()
model = FeedForward(2, 1, 64, 2)
solver = RBAPINN(problem=problem, model=model)
trainer = Trainer(solver, device)
'''
CELL = '''
loss = trainer.train()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
