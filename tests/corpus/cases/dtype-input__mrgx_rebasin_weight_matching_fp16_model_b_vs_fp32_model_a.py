"""Git re-basin SD merge: `weight_matching` fails at `A += w_a @ w_b.T` because model B's state dict is fp16 while model A's is fp32.

Source: https://github.com/ogkalu2/Merge-Stable-Diffusion-models-without-distortion/issues/5
The user merged two Stable Diffusion checkpoints with SD_rebasin_merge.py and always got
`RuntimeError: expected scalar type Float but found Half` at `A += w_a @ w_b.T` in weight_matching.
Answer: "You have to download the 32bit models." The half-precision checkpoint's tensors meet the
full-precision one's in the matmul; casting the fp16 state dict to float32 (what the later
"autocast to 32bit" change does) lets the merge run.
Stand-in: `weight_matching` / `get_permuted_param` as in the repository at the time of the issue,
with a one-permutation spec instead of `sdunet_permutation_spec()`, the checkpoints built in memory
instead of `torch.load`, and a brute-force `linear_sum_assignment` instead of scipy's.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import itertools
from collections import defaultdict, namedtuple

import numpy as np
import torch

PermutationSpec = namedtuple("PermutationSpec", ["perm_to_axes", "axes_to_perm"])

def permutation_spec_from_axes_to_perm(axes_to_perm):
    perm_to_axes = defaultdict(list)
    for wk, axis_perms in axes_to_perm.items():
        for axis, perm in enumerate(axis_perms):
            if perm is not None:
                perm_to_axes[perm].append((wk, axis))
    return PermutationSpec(perm_to_axes=dict(perm_to_axes), axes_to_perm=axes_to_perm)

def sdunet_permutation_spec():
    return permutation_spec_from_axes_to_perm({
        "model.diffusion_model.time_embed.0.weight": ("P_bg0", None),
        "model.diffusion_model.time_embed.0.bias": ("P_bg0",),
        "model.diffusion_model.time_embed.2.weight": (None, "P_bg0"),
        "model.diffusion_model.time_embed.2.bias": (None,),
    })

def linear_sum_assignment(cost, maximize=False):
    n = cost.shape[0]
    sign = 1 if maximize else -1
    best = max(itertools.permutations(range(n)),
               key=lambda p: sign * sum(cost[i, p[i]] for i in range(n)))
    return np.arange(n), np.array(best)

def get_permuted_param(ps, perm, k, params, except_axis=None):
    """Get parameter `k` from `params`, with the permutations applied."""
    w = params[k]
    for axis, p in enumerate(ps.axes_to_perm[k]):
        if axis == except_axis:
            continue
        if p is not None:
            w = torch.index_select(w, axis, perm[p].int())
    return w

def weight_matching(ps, params_a, params_b, max_iter=100, init_perm=None):
    """Find a permutation of `params_b` to make them match `params_a`."""
    perm_sizes = {p: params_a[axes[0][0]].shape[axes[0][1]] for p, axes in ps.perm_to_axes.items()}
    perm = {p: torch.arange(n) for p, n in perm_sizes.items()} if init_perm is None else init_perm
    perm_names = list(perm.keys())

    for iteration in range(max_iter):
        progress = False
        for p_ix in torch.randperm(len(perm_names)):
            p = perm_names[p_ix]
            n = perm_sizes[p]
            A = torch.zeros((n, n))
            for wk, axis in ps.perm_to_axes[p]:
                if wk in params_a and params_b:
                    w_a = params_a[wk]
                    w_b = get_permuted_param(ps, perm, wk, params_b, except_axis=axis)
                    w_a = torch.moveaxis(w_a, axis, 0).reshape((n, -1))
                    w_b = torch.moveaxis(w_b, axis, 0).reshape((n, -1))
                    A += w_a @ w_b.T
                else:
                    continue

            ri, ci = linear_sum_assignment(A.detach().numpy(), maximize=True)
            assert (torch.tensor(ri) == torch.arange(len(ri))).all()

            oldL = torch.vdot(torch.flatten(A), torch.flatten(torch.eye(n)[perm[p].long()]))
            newL = torch.vdot(torch.flatten(A), torch.flatten(torch.eye(n)[ci, :]))
            progress = progress or newL > oldL + 1e-12
            perm[p] = torch.Tensor(ci)

        if not progress:
            break
    return perm

def load_checkpoint(seed, dtype):
    g = torch.Generator().manual_seed(seed)
    sd = {
        "model.diffusion_model.time_embed.0.weight": torch.randn(6, 5, generator=g),
        "model.diffusion_model.time_embed.0.bias": torch.randn(6, generator=g),
        "model.diffusion_model.time_embed.2.weight": torch.randn(5, 6, generator=g),
        "model.diffusion_model.time_embed.2.bias": torch.randn(5, generator=g),
    }
    return {"state_dict": {k: v.to(dtype) for k, v in sd.items()}}

device = "cpu"
model_a = load_checkpoint(0, torch.float32)     # full-precision checkpoint
model_b = load_checkpoint(1, torch.float16)     # a pruned fp16 checkpoint
state_a = model_a["state_dict"]
state_b = model_b["state_dict"]
permutation_spec = sdunet_permutation_spec()
'''
CELL = '''
final_permutation = weight_matching(permutation_spec, state_a, state_b)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype",
                "expected scalar type Float but found Half",
                "mat1 and mat2 must have the same dtype")
CULPRITS = ["state_b"]
FIX = "namespace"
REFERENCE_FIX = '''
for k in state_b:
    state_b[k] = state_b[k].float()
'''
REFERENCE_EDIT = None
CLEAN = False
