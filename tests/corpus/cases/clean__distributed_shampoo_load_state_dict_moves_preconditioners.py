"""Distributed Shampoo with the maintainers' fix: `load_state_dict` moves the preconditioner objects' tensors to each parameter's device.

Source: https://github.com/facebookresearch/optimizers/issues/3
"we have updated the Shampoo implementation to overwrite load_state_dict". The checkpoint is still
read with `map_location='cpu'`, so the preconditioner tensors arrive on the CPU, and the override
moves them next to the CUDA parameters before training resumes. A look-alike of an optimizer
resumed from a CPU checkpoint that is right.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.optim.optimizer import Optimizer

class ShampooPreconditioner:
    def __init__(self, param, epsilon=1e-6):
        self.epsilon = epsilon
        self.factor_matrices = [torch.zeros(d, d, device=param.device) for d in param.shape]

    def update_preconditioners(self, grad):
        self.factor_matrices[0].add_(grad @ grad.t())
        self.factor_matrices[1].add_(grad.t() @ grad)

    def precondition(self, grad):
        left, right = self.factor_matrices
        return (left @ grad @ right) / (left.trace() * right.trace() + self.epsilon)

class AdagradPreconditioner:
    def __init__(self, param, epsilon=1e-6):
        self.epsilon = epsilon
        self.sum_sq = torch.zeros_like(param)

    def update_preconditioners(self, grad):
        self.sum_sq.addcmul_(grad, grad)

    def precondition(self, grad):
        return grad / (self.sum_sq.sqrt() + self.epsilon)

class DistributedShampoo(Optimizer):
    def __init__(self, params, lr=0.01):
        super().__init__(params, dict(lr=lr))
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["preconditioner"] = (ShampooPreconditioner(p) if p.dim() == 2
                                                   else AdagradPreconditioner(p))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                pre = self.state[p]["preconditioner"]
                pre.update_preconditioners(p.grad)
                p.add_(pre.precondition(p.grad), alpha=-group["lr"])

    def load_state_dict(self, state_dict):
        super().load_state_dict(state_dict)
        for group in self.param_groups:
            for p in group["params"]:
                pre = self.state[p]["preconditioner"]
                if hasattr(pre, "factor_matrices"):
                    pre.factor_matrices = [f.to(p.device) for f in pre.factor_matrices]
                else:
                    pre.sum_sq = pre.sum_sq.to(p.device)

def create_model():
    return nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 10))

# the checkpoint of an earlier run, read back with map_location="cpu" (timm's resume_checkpoint)
_run = create_model()
_opt = DistributedShampoo(_run.parameters())
for _p in _run.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
checkpoint = {"state_dict": _run.state_dict(), "optimizer": _opt.state_dict(), "epoch": 12}

device = torch.device("cuda:0")
model = create_model()
model.load_state_dict(checkpoint["state_dict"])
model = model.to(device)
optimizer = DistributedShampoo(model.parameters())
optimizer.load_state_dict(checkpoint["optimizer"])
start_epoch = checkpoint["epoch"]

def train_step(model, optimizer, x):
    optimizer.zero_grad()
    out = model(x)
    for p in model.parameters():        # stand-in for loss.backward()
        p.grad = torch.ones_like(p)
    optimizer.step()
    return out

x = torch.randn(8, 16).to(device)
'''
CELL = '''
out = train_step(model, optimizer, x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
