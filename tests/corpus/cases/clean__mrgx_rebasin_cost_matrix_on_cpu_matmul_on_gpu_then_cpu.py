"""Look-alike: git re-basin SD merge keeps the permutation cost matrix `A` on the CPU and accumulates GPU matmul results into it with `.cpu()`.

Source: https://github.com/ogkalu2/Merge-Stable-Diffusion-models-without-distortion/blob/main/weight_matching.py
In the float32 branch of `weight_matching`, `A = torch.zeros((n, n), dtype=torch.float32).to(device="cpu")`
because it goes to scipy's `linear_sum_assignment(A.detach().numpy(), ...)`; the state dicts stay
on the CPU (checkpoints are loaded with `map_location="cpu"`, permutations are CPU `arange`s), each
weight pair is moved to `device` for the product, and the product comes back with
`A += torch.matmul(w_a.float(), w_b.float()).cpu()`.
Stand-in: `get_permuted_param` and the inner cost-matrix loop of the fp32 branch (the scipy
assignment step is left out), one permutation over a two-layer block, `device="cuda"` written
"cuda:0".
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import namedtuple
import torch

PermutationSpec = namedtuple("PermutationSpec", ["perm_to_axes", "axes_to_perm"])

axes_to_perm = {
    "model.diffusion_model.time_embed.0.weight": ("P_bg0", None),
    "model.diffusion_model.time_embed.0.bias": ("P_bg0",),
    "model.diffusion_model.time_embed.2.weight": (None, "P_bg0"),
}
perm_to_axes = {"P_bg0": [("model.diffusion_model.time_embed.0.weight", 0),
                          ("model.diffusion_model.time_embed.0.bias", 0),
                          ("model.diffusion_model.time_embed.2.weight", 1)]}
permutation_spec = PermutationSpec(perm_to_axes=perm_to_axes, axes_to_perm=axes_to_perm)

def get_permuted_param(ps, perm, k, params, except_axis=None):
    """Get parameter `k` from `params`, with the permutations applied."""
    w = params[k]
    for axis, p in enumerate(ps.axes_to_perm[k]):
        if axis == except_axis:
            continue
        if p is not None:
            w = torch.index_select(w, axis, perm[p].int())
    return w

def cost_matrix(ps, perm, p, n, params_a, params_b, device):
    A = torch.zeros((n, n), dtype=torch.float32).to(device="cpu")
    for wk, axis in ps.perm_to_axes[p]:
        w_a = params_a[wk]
        w_b = get_permuted_param(ps, perm, wk, params_b, except_axis=axis)
        w_a = torch.moveaxis(w_a, axis, 0).reshape((n, -1)).to(device)
        w_b = torch.moveaxis(w_b, axis, 0).reshape((n, -1)).T.to(device)
        A += torch.matmul(w_a.float(), w_b.float()).cpu()
    return A

def load_state_dict(seed):      # torch.load(path, map_location="cpu")["state_dict"]
    g = torch.Generator().manual_seed(seed)
    return {
        "model.diffusion_model.time_embed.0.weight": torch.randn(6, 5, generator=g),
        "model.diffusion_model.time_embed.0.bias": torch.randn(6, generator=g),
        "model.diffusion_model.time_embed.2.weight": torch.randn(5, 6, generator=g),
    }

theta_0 = load_state_dict(0)
theta_1 = load_state_dict(1)
device = "cuda:0"
perm = {"P_bg0": torch.arange(6)}
'''
CELL = '''
A = cost_matrix(permutation_spec, perm, "P_bg0", 6, theta_0, theta_1, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
