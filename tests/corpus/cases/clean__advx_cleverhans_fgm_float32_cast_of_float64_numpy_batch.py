"""Look-alike: a float64 numpy batch handed to cleverhans' `fast_gradient_method` with a float32 model; the attack's own `.to(torch.float)` cast makes the dtypes agree.

Source: https://github.com/cleverhans-lab/cleverhans/blob/master/cleverhans/torch/attacks/fast_gradient_method.py
`fast_gradient_method` builds its leaf with `x = x.clone().detach().to(torch.float).requires_grad_(True)`
after range checks that build `torch.tensor(clip_min, device=x.device, dtype=x.dtype)`: a batch
made with `torch.from_numpy` on a float64 array (numpy's default) reaches a float32 network as
float32, and the returned adversarial batch is float32. The hard-coded dtype looks suspicious
(it breaks float64 models, issue #1224), but for the usual float32 model it is what lets a
float64 input through. Stand-in: cleverhans' `fast_gradient_method` (sanity checks kept) and
`optimize_linear` (inf norm only); a small float32 MLP for the user's model.
"""

SIM = "cpu"
FAMILY = "clean"
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

def fast_gradient_method(model_fn, x, eps, norm, loss_fn=None, clip_min=None, clip_max=None, y=None,
                         targeted=False, sanity_checks=False):
    if norm not in [np.inf, 1, 2]:
        raise ValueError("Norm order must be either np.inf, 1, or 2, got {} instead.".format(norm))
    if eps < 0:
        raise ValueError("eps must be greater than or equal to 0, got {} instead".format(eps))
    if eps == 0:
        return x
    asserts = []
    if clip_min is not None:
        assert_ge = torch.all(torch.ge(x, torch.tensor(clip_min, device=x.device, dtype=x.dtype)))
        asserts.append(assert_ge)
    if clip_max is not None:
        assert_le = torch.all(torch.le(x, torch.tensor(clip_max, device=x.device, dtype=x.dtype)))
        asserts.append(assert_le)
    x = x.clone().detach().to(torch.float).requires_grad_(True)
    if y is None:
        _, y = torch.max(model_fn(x), 1)
    if loss_fn is None:
        loss_fn = torch.nn.CrossEntropyLoss()
    loss = loss_fn(model_fn(x), y)
    if targeted:
        loss = -loss
    loss.backward()
    optimal_perturbation = optimize_linear(x.grad, eps, norm)
    adv_x = x + optimal_perturbation
    if (clip_min is not None) or (clip_max is not None):
        adv_x = torch.clamp(adv_x, clip_min, clip_max)
    if sanity_checks:
        assert np.all(asserts)
    return adv_x

net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
net.eval()
x = torch.from_numpy(np.random.default_rng(0).random((32, 20)))   # float64, as numpy makes it
'''
CELL = '''
x_fgm = fast_gradient_method(net, x, 0.1, np.inf, clip_min=0.0, clip_max=1.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
