"""torchdyn `NeuralODE(f, sensitivity='adjoint')` under Lightning on a GPU: the flattened `vf_params` is a plain tensor attribute that the move to the GPU leaves on the CPU.

Source: https://github.com/DiffEqML/torchdyn/issues/116
"NeuralODE adjoint incompatable with PytorchLighting gpus": the user's `training_step` printed
"Learner is on device: cuda:0" but `self.model.vf_params.device` was cpu, and the adjoint backward
failed. `ODEProblem.__init__` sets `self.vf_params = torch.cat([p.contiguous().flatten() for p in
vf.parameters()])`, a plain attribute that `Module.to()` / Lightning's device move never touch; the
adjoint's backward accumulates the parameter adjoint into `torch.zeros_like(vf_params)`. Stand-in: the
`NeuralODE` with its `vf_params` and an adjoint `autograd.Function` (Euler steps forward, the adjoint
integrated backward with vector-Jacobian products), Lightning's device move and training step written
out; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

def _gather_odefunc_adjoint(vf, steps=20):
    class _ODEProblemFuncAdjoint(torch.autograd.Function):
        @staticmethod
        def forward(ctx, vf_params, x, t_span):
            xs = [x]
            for t0, t1 in zip(t_span[:-1], t_span[1:]):
                xs.append(xs[-1] + (t1 - t0) * vf(xs[-1]))
            ctx.save_for_backward(vf_params, t_span, *xs)
            return t_span, torch.stack(xs)

        @staticmethod
        def backward(ctx, *grad_output):
            vf_params, t_span, *xs = ctx.saved_tensors
            λ = grad_output[-1][-1]
            μ = torch.zeros_like(vf_params)
            params = tuple(vf.parameters())
            for i in range(len(xs) - 1, 0, -1):
                dt = t_span[i] - t_span[i - 1]
                with torch.enable_grad():
                    x = xs[i - 1].detach().requires_grad_(True)
                    f = vf(x)
                    vjp_x, *vjp_p = torch.autograd.grad(f, (x,) + params, λ, allow_unused=True)
                λ = λ + dt * vjp_x + grad_output[-1][i - 1]
                μ = μ + dt * torch.cat([g.flatten() for g in vjp_p])
            for p, g in zip(params, μ.split([p.numel() for p in params])):
                p.grad = g.view_as(p) if p.grad is None else p.grad + g.view_as(p)
            return None, λ, None
    return _ODEProblemFuncAdjoint

class NeuralODE(nn.Module):
    def __init__(self, vector_field, solver="euler", sensitivity="autograd"):
        super().__init__()
        self.vf, self.sensalg = vector_field, sensitivity
        if len(tuple(self.vf.parameters())) > 0:
            self.vf_params = torch.cat([p.contiguous().flatten() for p in self.vf.parameters()])
        self.autograd_function = _gather_odefunc_adjoint(self.vf)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, x, t_span):
        t_span = t_span.to(x)
        return self.autograd_function.apply(self.vf_params, x, t_span)

class Learner(nn.Module):                         # pl.LightningModule
    def __init__(self, model):
        super().__init__()
        self.model = model
    def forward(self, x):
        return self.model(x)
    def training_step(self, batch, batch_idx):
        x = batch[0]
        _, z = self.model(x, torch.linspace(0, 1, 100))
        loss = z.abs().mean()
        return {"loss": loss}
    def configure_optimizers(self):
        return torch.optim.Adam(self.model.parameters(), lr=0.01)

f = torch.nn.Sequential(torch.nn.Linear(1, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))
model = NeuralODE(f, sensitivity="adjoint", solver="dopri5")
learner = Learner(model)
device = torch.device("meta")                     # Trainer(gpus=1) moves the LightningModule to cuda:0
learner = learner.to(device)
optimizer = learner.configure_optimizers()
dataset = torch.utils.data.TensorDataset(torch.randn(10, 1))
train_dataloader = torch.utils.data.DataLoader(dataset)
'''
CELL = '''
for batch_idx, batch in enumerate(train_dataloader):
    batch = [b.to(device) for b in batch]
    optimizer.zero_grad()
    out = learner.training_step(batch, batch_idx)
    out["loss"].backward()
    optimizer.step()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.vf_params"]
FIX = "namespace"
REFERENCE_FIX = '''
model.vf_params = model.vf_params.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
