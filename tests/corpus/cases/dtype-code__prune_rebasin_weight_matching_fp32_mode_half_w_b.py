"""Git Re-Basin SD merge in float32 mode: `weight_matching` casts the permuted `w_b` to half while `w_a` stays float32.

Source: https://github.com/ogkalu2/Merge-Stable-Diffusion-models-without-distortion/issues/27
"float32 mode broken? after the first iteration i get the following error, when i use float32 mode to merge
models: `A += torch.matmul(w_a, w_b).cpu()` RuntimeError: expected scalar type Float but found Half".
In the full-precision branch of `weight_matching`, `w_b = get_permuted_param(...).half()` while `w_a` comes
from the float32 model A. A commenter cast both sides to float32; the maintainer's fix ("fixed float 32")
does the matmul as `torch.matmul(w_a.float(), w_b.float())`.
Stand-in: weight_matching.py's PermutationSpec / get_permuted_param / weight_matching (usefp16=False branch)
for one permutation over a two-layer block; its `.to("cuda")` moves are left out (dtype bug, CPU) and
scipy's `linear_sum_assignment` is a brute-force stand-in. The edit is in a plain function; `theta_0`
(params_b) is the namespace object whose permuted weights are cast to half.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from collections import defaultdict
from itertools import permutations
from random import shuffle
from typing import NamedTuple
import numpy as np
import torch

def linear_sum_assignment(cost):
    n = cost.shape[0]
    best = min(permutations(range(n)), key=lambda p: sum(cost[i, p[i]] for i in range(n)))
    return np.arange(n), np.array(best)

class PermutationSpec(NamedTuple):
    perm_to_axes: dict
    axes_to_perm: dict

def permutation_spec_from_axes_to_perm(axes_to_perm):
    perm_to_axes = defaultdict(list)
    for wk, axis_perms in axes_to_perm.items():
        for axis, perm in enumerate(axis_perms):
            if perm is not None:
                perm_to_axes[perm].append((wk, axis))
    return PermutationSpec(perm_to_axes=dict(perm_to_axes), axes_to_perm=axes_to_perm)

def sdunet_permutation_spec():
    return permutation_spec_from_axes_to_perm({
        "model.diffusion_model.out.0.weight": ("P_bg0", None),
        "model.diffusion_model.out.0.bias": ("P_bg0",),
        "model.diffusion_model.out.2.weight": (None, "P_bg0"),
    })

def get_permuted_param(ps, perm, k, params, except_axis=None):
    w = params[k]
    for axis, p in enumerate(ps.axes_to_perm[k]):
        if axis == except_axis:
            continue
        if p is not None:
            w = torch.index_select(w, axis, perm[p].int())
    return w

def weight_matching(ps, params_a, params_b, max_iter=1, init_perm=None, usefp16=False):
    perm_sizes = {p: params_a[axes[0][0]].shape[axes[0][1]] for p, axes in ps.perm_to_axes.items()}
    perm = {p: torch.arange(n) for p, n in perm_sizes.items()} if init_perm is None else init_perm
    perm_names = list(perm.keys())
    total = 0
    number = 0
    for iteration in range(max_iter):
        progress = False
        for p_ix in torch.randperm(len(perm_names)):
            p = perm_names[p_ix]
            n = perm_sizes[p]
            A = torch.zeros((n, n))
            for wk, axis in ps.perm_to_axes[p]:
                w_a = params_a[wk]
                w_b = get_permuted_param(ps, perm, wk, params_b, except_axis=axis).half()
                w_a = torch.moveaxis(w_a, axis, 0).reshape((n, -1))
                w_b = torch.moveaxis(w_b, axis, 0).reshape((n, -1)).T
                A += torch.matmul(w_a, w_b).cpu()

            ri, ci = linear_sum_assignment(A.detach().numpy())
            assert (torch.tensor(ri) == torch.arange(len(ri))).all()
            oldL = torch.vdot(torch.flatten(A), torch.flatten(torch.eye(n)[perm[p].long()]))
            newL = torch.vdot(torch.flatten(A), torch.flatten(torch.eye(n)[ci, :]))
            if newL - oldL != 0:
                total += abs((newL - oldL).item())
                number += 1
            progress = progress or newL > oldL + 1e-12
            perm[p] = torch.Tensor(ci)
        if not progress:
            break
    average = total / number if number > 0 else 0
    return (perm, average)

def load_model(seed):
    g = torch.Generator().manual_seed(seed)
    return {
        "model.diffusion_model.out.0.weight": torch.randn(6, 8, generator=g),
        "model.diffusion_model.out.0.bias": torch.randn(6, generator=g),
        "model.diffusion_model.out.2.weight": torch.randn(4, 6, generator=g),
    }

model_a = load_model(0)        # float32 checkpoints (--usefp32)
model_b = load_model(1)
theta_0 = {k: 0.9 * v + 0.1 * model_b[k] for k, v in model_a.items()}
permutation_spec = sdunet_permutation_spec()
'''
CELL = '''
first_permutation, y = weight_matching(permutation_spec, model_a, theta_0, usefp16=False)
'''
EXPECT_ERROR = "same dtype"
CULPRITS = ["theta_0"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("A += torch.matmul(w_a, w_b).cpu()", "A += torch.matmul(w_a.float(), w_b.float()).cpu()")
CLEAN = False
