"""Look-alike: learn2learn's MetaSGD keeps per-parameter learning rates in a ParameterList, and every `clone()` carries them as a plain Python list of tensors.

Source: https://github.com/learnables/learn2learn/blob/master/tests/unit/algorithms/metasgd_test.py
`test_memory_consumption` wraps a 10-layer MLP built on the CPU in `l2l.algorithms.MetaSGD(model,
lr=0.0001)` and only then calls `maml.to(device)`; each evaluation takes `learner = maml.clone()`, makes
`X = torch.randn(BSZ, INPUT_SIZE, device=device)` and adapts with `learner.adapt(torch.norm(learner(X)))`.
The learning rates are created with `th.ones_like(p) * lr` and registered as an `nn.ParameterList`, so
`maml.to(device)` moves them; the clone holds `clone_parameters(self.lrs)`, a plain list (not
registered) whose tensors are clones of the on-device rates, and `meta_sgd_update` re-routes the
module's `_parameters` to `p - p._lr * p.grad`. All on one device.
Stand-in: learn2learn's `MetaSGD` / `meta_sgd_update` / `clone_module` / `clone_parameters` reduced to
their core, a 3-layer MLP, batch 16, 2 adaptation steps, 2 evaluations, no CUDA memory measurement;
the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch as th
from torch import nn
from torch.autograd import grad

def clone_module(module, memo=None):
    if memo is None:
        memo = {}
    if not isinstance(module, torch.nn.Module):
        return module
    clone = module.__new__(type(module))
    clone.__dict__ = module.__dict__.copy()
    clone._parameters = clone._parameters.copy()
    clone._buffers = clone._buffers.copy()
    clone._modules = clone._modules.copy()
    for param_key in module._parameters:
        if module._parameters[param_key] is not None:
            param = module._parameters[param_key]
            param_ptr = param.data_ptr
            if param_ptr in memo:
                clone._parameters[param_key] = memo[param_ptr]
            else:
                cloned = param.clone()
                clone._parameters[param_key] = cloned
                memo[param_ptr] = cloned
    for module_key in clone._modules:
        clone._modules[module_key] = clone_module(module._modules[module_key], memo=memo)
    return clone

def clone_parameters(param_list):
    return [p.clone() for p in param_list]

def meta_sgd_update(model, lrs=None, grads=None):
    if grads is not None and lrs is not None:
        for p, lr, g in zip(model.parameters(), lrs, grads):
            p.grad = g
            p._lr = lr
    for param_key in model._parameters:
        p = model._parameters[param_key]
        if p is not None and p.grad is not None:
            model._parameters[param_key] = p - p._lr * p.grad
            p.grad = None
            p._lr = None
    for module_key in model._modules:
        model._modules[module_key] = meta_sgd_update(model._modules[module_key])
    return model

class MetaSGD(nn.Module):
    def __init__(self, model, lr=1.0, first_order=False, lrs=None):
        super(MetaSGD, self).__init__()
        self.module = model
        if lrs is None:
            lrs = [th.ones_like(p) * lr for p in model.parameters()]
            lrs = nn.ParameterList([nn.Parameter(lr) for lr in lrs])
        self.lrs = lrs
        self.first_order = first_order

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def clone(self):
        return MetaSGD(clone_module(self.module), lrs=clone_parameters(self.lrs), first_order=self.first_order)

    def adapt(self, loss, first_order=None):
        if first_order is None:
            first_order = self.first_order
        second_order = not first_order
        gradients = grad(loss, self.module.parameters(), retain_graph=second_order, create_graph=second_order)
        self.module = meta_sgd_update(self.module, self.lrs, gradients)

BSZ = 16
INPUT_SIZE = 8
N_STEPS = 2
N_EVAL = 2
device = torch.device("meta")   # the GPU ("cuda"), simulated with meta
model = torch.nn.Sequential(*[torch.nn.Linear(INPUT_SIZE, INPUT_SIZE) for _ in range(3)])
maml = MetaSGD(model, lr=0.0001)
maml.to(device)
'''
CELL = '''
for evaluation in range(N_EVAL):
    learner = maml.clone()
    X = torch.randn(BSZ, INPUT_SIZE, device=device)
    for step in range(N_STEPS):
        learner.adapt(torch.norm(learner(X)))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
