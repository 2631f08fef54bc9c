"""cleverhans PyTorch PGD on a double-precision model: `fast_gradient_method` casts the input to float32.

Source: https://github.com/cleverhans-lab/cleverhans/issues/1224
"I used the PGD method ... but I use double precision in my models thus encountered an error while
using the attack". `projected_gradient_descent` calls `fast_gradient_method`, which makes its leaf
with `x = x.clone().detach().to(torch.float).requires_grad_(True)`, so a float64 model receives a
float32 batch. The reporter's fix: `x = x.clone().detach().to(x.dtype).requires_grad_(True)`
(a later comment: "this also breaks for `torch.float16`"). Stand-in: cleverhans'
`fast_gradient_method`, `optimize_linear` (inf norm only), `clip_eta` and
`projected_gradient_descent` without the sanity checks; a small float64 MLP for the user's model.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def optimize_linear(grad, eps, norm=np.inf):
    if norm == np.inf:
        optimal_perturbation = torch.sign(grad)
    else:
        raise NotImplementedError("only norm=np.inf in this stand-in")
    return eps * optimal_perturbation

def clip_eta(eta, norm, eps):
    if norm == np.inf:
        eta = torch.clamp(eta, -eps, eps)
    else:
        raise NotImplementedError("only norm=np.inf in this stand-in")
    return eta

def fast_gradient_method(model_fn, x, eps, norm, clip_min=None, clip_max=None, y=None, targeted=False):
    x = x.clone().detach().to(torch.float).requires_grad_(True)
    if y is None:
        _, y = torch.max(model_fn(x), 1)
    loss_fn = torch.nn.CrossEntropyLoss()
    loss = loss_fn(model_fn(x), y)
    if targeted:
        loss = -loss
    loss.backward()
    optimal_perturbation = optimize_linear(x.grad, eps, norm)
    adv_x = x + optimal_perturbation
    if (clip_min is not None) or (clip_max is not None):
        adv_x = torch.clamp(adv_x, clip_min, clip_max)
    return adv_x

def projected_gradient_descent(model_fn, x, eps, eps_iter, nb_iter, norm, clip_min=None, clip_max=None,
                               y=None, targeted=False, rand_init=True, rand_minmax=None):
    if rand_minmax is None:
        rand_minmax = eps
    if rand_init:
        eta = torch.zeros_like(x).uniform_(-rand_minmax, rand_minmax)
    else:
        eta = torch.zeros_like(x)
    eta = clip_eta(eta, norm, eps)
    adv_x = x + eta
    if clip_min is not None or clip_max is not None:
        adv_x = torch.clamp(adv_x, clip_min, clip_max)
    if y is None:
        _, y = torch.max(model_fn(x), 1)
    i = 0
    while i < nb_iter:
        adv_x = fast_gradient_method(model_fn, adv_x, eps_iter, norm, clip_min=clip_min, clip_max=clip_max,
                                     y=y, targeted=targeted)
        eta = adv_x - x
        eta = clip_eta(eta, norm, eps)
        adv_x = x + eta
        if clip_min is not None or clip_max is not None:
            adv_x = torch.clamp(adv_x, clip_min, clip_max)
        i += 1
    return adv_x

net = nn.Sequential(nn.Linear(20, 64), nn.Tanh(), nn.Linear(64, 3)).double()
net.eval()
x = torch.rand(32, 20, dtype=torch.float64)
y = torch.randint(0, 3, (32,))
'''
CELL = '''
x_adv = projected_gradient_descent(net, x, eps=0.1, eps_iter=0.01, nb_iter=10, norm=np.inf,
                                   clip_min=0.0, clip_max=1.0, y=y)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type")
CULPRITS = ["fast_gradient_method"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("x = x.clone().detach().to(torch.float).requires_grad_(True)",
                  "x = x.clone().detach().to(x.dtype).requires_grad_(True)")
CLEAN = False
