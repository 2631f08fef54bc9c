"""advertorch L1PGDAttack with `rand_init=True` on the GPU: the Laplace initial noise is sampled on the CPU.

Source: https://github.com/BorealisAI/advertorch/issues/48
"I got the following errors when trying to use L1PGD attacks": `rand_init_delta` failed at
`delta.data = clamp(x.data + delta.data, clip_min, clip_max) - x.data` with "expected type
torch.cuda.FloatTensor but got torch.FloatTensor"; L2 and Linf attacks were fine. The maintainer:
"`delta` is supposed to have the same data type/device as `x` at the beginning of
`rand_init_delta()`, so in the L1 case, it must be overwritten somehow". The L1 branch draws
`laplace.Laplace(0, 1).sample(delta.data.shape)`, a CPU tensor; the fix (commit 850ecac, "fixing
l1 pgd cuda", PR #50) builds the distribution from delta:
`laplace.Laplace(loc=delta.new_tensor(0), scale=delta.new_tensor(1))`. Stand-in: advertorch's
`rand_init_delta`, `perturb_iterative` (L1 branch) and `L1PGDAttack.perturb` of that commit; the
sparse-L1 projection `batch_l1_proj` is stood in by a rescale onto the L1 ball done on delta's
device (the release's CPU round trip there, `.cpu()` ... `.cuda()`, is a separate report, #96); the
L1 branch's `delta.data = ...` steps go through a local `d` assigned to `delta.data` at the end (the
meta/CPU pair refuses a cross-device `.data` assignment, which a 2019 CUDA build accepted, so the
failure surfaces at the same `clamp(x.data + ...)` line); distribution argument validation is
switched off (it reads values, which meta tensors lack); the meta device plays cuda (autograd is
needed).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import laplace
from torch.distributions import uniform

torch.distributions.Distribution.set_default_validate_args(False)   # argument checks read values (meta has none)

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

def rand_init_delta(delta, x, ord, eps, clip_min, clip_max):
    if ord == np.inf:
        delta.data.uniform_(-1, 1)
        delta.data = batch_multiply(eps, delta.data)
    elif ord == 1:
        ini = laplace.Laplace(0, 1)
        d = ini.sample(delta.data.shape)                    # delta.data = ini.sample(...)
        d = normalize_by_pnorm(d, p=1)
        ray = uniform.Uniform(0, eps).sample()
        d *= ray
        d = clamp(x.data + d, clip_min, clip_max) - x.data
        delta.data = d
    else:
        raise NotImplementedError("only ord = inf and ord = 1 in this stand-in")
    delta.data = clamp(x + delta.data, min=clip_min, max=clip_max) - x
    return delta.data

def perturb_iterative(xvar, yvar, predict, nb_iter, eps, eps_iter, loss_fn, delta_init=None,
                      minimize=False, ord=np.inf, clip_min=0.0, clip_max=1.0, l1_sparsity=None):
    if delta_init is not None:
        delta = delta_init
    else:
        delta = torch.zeros_like(xvar)
    delta.requires_grad_()
    for ii in range(nb_iter):
        outputs = predict(xvar + delta)
        loss = loss_fn(outputs, yvar)
        if minimize:
            loss = -loss
        loss.backward()
        if ord == 1:
            grad = delta.grad.data
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
            delta.data = delta.data + batch_multiply(eps_iter, grad)
            delta.data = batch_l1_proj(delta.data, eps)
            delta.data = clamp(xvar.data + delta.data, clip_min, clip_max) - xvar.data
        else:
            raise NotImplementedError("only ord = 1 in this stand-in")
        delta.grad.data.zero_()
    x_adv = clamp(xvar + delta, clip_min, clip_max)
    return x_adv

class L1PGDAttack:
    def __init__(self, predict, loss_fn=None, eps=10., nb_iter=40, eps_iter=0.01, rand_init=True,
                 clip_min=0., clip_max=1., l1_sparsity=0.95, targeted=False):
        self.predict = predict
        self.loss_fn = loss_fn if loss_fn is not None else nn.CrossEntropyLoss(reduction="sum")
        self.eps, self.nb_iter, self.eps_iter = eps, nb_iter, eps_iter
        self.rand_init, self.clip_min, self.clip_max = rand_init, clip_min, clip_max
        self.l1_sparsity, self.targeted, self.ord = l1_sparsity, targeted, 1

    def perturb(self, x, y=None):
        x = x.detach().clone()
        if y is None:
            with torch.no_grad():
                y = self.predict(x).argmax(dim=1)
        delta = torch.zeros_like(x)
        delta = nn.Parameter(delta)
        if self.rand_init:
            rand_init_delta(delta, x, self.ord, self.eps, self.clip_min, self.clip_max)
            delta.data = clamp(x + delta.data, min=self.clip_min, max=self.clip_max) - x
        rval = perturb_iterative(x, y, self.predict, nb_iter=self.nb_iter, eps=self.eps,
                                 eps_iter=self.eps_iter, loss_fn=self.loss_fn, minimize=self.targeted,
                                 ord=self.ord, clip_min=self.clip_min, clip_max=self.clip_max,
                                 delta_init=delta, l1_sparsity=self.l1_sparsity)
        return rval.data

device = torch.device("meta")   # "cuda"
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
model.eval()
adversary = L1PGDAttack(model, loss_fn=nn.CrossEntropyLoss(reduction="sum"), eps=10., nb_iter=3,
                        eps_iter=0.5, rand_init=True, clip_min=0.0, clip_max=1.0, targeted=False)
cln_data = torch.rand(8, 1, 28, 28).to(device)
true_label = torch.randint(0, 10, (8,)).to(device)
'''
CELL = '''
adv_untargeted = adversary.perturb(cln_data, true_label)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["rand_init_delta"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ini = laplace.Laplace(0, 1)",
                  "ini = laplace.Laplace(loc=delta.new_tensor(0), scale=delta.new_tensor(1))")
CLEAN = False
