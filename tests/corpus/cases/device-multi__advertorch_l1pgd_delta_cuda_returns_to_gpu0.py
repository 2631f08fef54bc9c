"""advertorch L1PGDAttack on cuda:1: the L1 projection runs on the CPU and `.cuda()` brings delta back to cuda:0.

Source: https://github.com/BorealisAI/advertorch/issues/96
"When running L1PGDAttack on a GPU that is different from `cuda:0`": `perturb_iterative` failed at
`delta.data = clamp(xvar.data + delta.data, clip_min, clip_max) - xvar.data` with "Expected all
tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0!". The L1 branch
projects `batch_l1_proj(delta.data.cpu(), eps)` and then `if xvar.is_cuda: delta.data =
delta.data.cuda()`, which is the *current* device (cuda:0), not xvar's. The reporter: use
`delta.data.to(xvar.device)` (PR #97). Stand-in: `perturb_iterative`'s L1 branch and
`L1PGDAttack.perturb` without random init; the simulator runs no autograd, so the loss gradient
is stood in by a random tensor of delta's shape and device, and `batch_l1_proj` (which uses
`nonzero`) by a rescale onto the L1 ball; `.cuda()` is written `.cuda("cuda:0")`, the current
device it resolves to (the simulator has no current device), and the `delta.data = ...`
assignments rebind `delta` (the simulator's `.data` setter cannot change a tensor's device).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def clamp(input, min=None, max=None):
    return torch.clamp(input, min=min, max=max)

def batch_multiply(float_or_vector, tensor):
    return float_or_vector * tensor

def normalize_by_pnorm(x, p=2, small_constant=1e-6):
    norm = x.abs().pow(p).flatten(1).sum(dim=1).pow(1. / p).clamp(min=small_constant)
    return x / norm.view(-1, *([1] * (x.dim() - 1)))

def batch_l1_proj(x, eps):
    norm = x.abs().flatten(1).sum(dim=1).view(-1, *([1] * (x.dim() - 1)))
    return x * torch.clamp(eps / (norm + 1e-12), max=1.0)

def loss_gradient_standin(predict, loss_fn, xvar, delta, yvar):
    outputs = predict(xvar + delta)
    loss = loss_fn(outputs, yvar)
    return torch.randn_like(delta)          # loss.backward(); delta.grad.data

def perturb_iterative(xvar, yvar, predict, nb_iter, eps, eps_iter, loss_fn, delta_init=None,
                      minimize=False, ord=np.inf, clip_min=0.0, clip_max=1.0, l1_sparsity=None):
    if delta_init is not None:
        delta = delta_init
    else:
        delta = torch.zeros_like(xvar)
    for ii in range(nb_iter):
        grad = loss_gradient_standin(predict, loss_fn, xvar, delta, yvar)
        if minimize:
            grad = -grad
        if ord == 1:
            abs_grad = torch.abs(grad)
            batch_size = grad.size(0)
            view = abs_grad.view(batch_size, -1)
            view_size = view.size(1)
            if l1_sparsity is None:
                vals, idx = view.topk(1)
            else:
                vals, idx = view.topk(int(np.round((1 - l1_sparsity) * view_size)))
            out = torch.zeros_like(view).scatter_(1, idx, vals)
            out = out.view_as(grad)
            grad = grad.sign() * (out > 0).float()
            grad = normalize_by_pnorm(grad, p=1)
            delta = delta + batch_multiply(eps_iter, grad)            # delta.data = ...
            delta = batch_l1_proj(delta.cpu(), eps)                    # delta.data = batch_l1_proj(delta.data.cpu(), eps)
            if xvar.is_cuda:
                delta = delta.cuda("cuda:0")   # delta.data = delta.data.cuda(): the current GPU
            delta = clamp(xvar.data + delta, clip_min, clip_max) - xvar.data
        else:
            raise NotImplementedError("only ord=1 in this stand-in")
    x_adv = clamp(xvar + delta, clip_min, clip_max)
    return x_adv

class L1PGDAttack:
    def __init__(self, predict, loss_fn=None, eps=10., nb_iter=40, eps_iter=0.01, rand_init=False,
                 clip_min=0., clip_max=1., l1_sparsity=0.95, targeted=False):
        self.predict = predict
        self.loss_fn = loss_fn if loss_fn is not None else nn.CrossEntropyLoss(reduction="sum")
        self.eps, self.nb_iter, self.eps_iter = eps, nb_iter, eps_iter
        self.rand_init, self.clip_min, self.clip_max = rand_init, clip_min, clip_max
        self.l1_sparsity, self.targeted, self.ord = l1_sparsity, targeted, 1

    def perturb(self, x, y=None):
        if y is None:
            y = self.predict(x).argmax(dim=1)
        delta = torch.zeros_like(x)
        delta = nn.Parameter(delta)
        rval = perturb_iterative(x, y, self.predict, nb_iter=self.nb_iter, eps=self.eps,
                                 eps_iter=self.eps_iter, loss_fn=self.loss_fn, minimize=self.targeted,
                                 ord=self.ord, clip_min=self.clip_min, clip_max=self.clip_max,
                                 delta_init=delta, l1_sparsity=self.l1_sparsity)
        return rval.data

device = torch.device("cuda:1")
model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 26 * 26, 10))
model.to(device)
model.eval()
adversary = L1PGDAttack(model, loss_fn=nn.CrossEntropyLoss(reduction="sum"), eps=10., nb_iter=3,
                        eps_iter=0.5, rand_init=False, clip_min=0.0, clip_max=1.0, targeted=False)
cln_data = torch.rand(8, 1, 28, 28).to(device)
true_label = torch.randint(0, 10, (8,)).to(device)
'''
CELL = '''
adv_untargeted = adversary.perturb(cln_data, true_label)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["adversary"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('delta = delta.cuda("cuda:0")', "delta = delta.to(xvar.device)")
CLEAN = False
