"""Look-alike: TensorLy `initialize_cp(init='random')` creates the random CP factors with `**tl.context(tensor)`, on the tensor's GPU.

Source: https://github.com/tensorly/tensorly/blob/main/tensorly/decomposition/_cp.py
`initialize_cp` draws `random_cp(tl.shape(tensor), rank, random_state=rng, **tl.context(tensor))`
when `init == "random"`, so factors and weights share the tensor's dtype and device; the ALS loop
then builds its accumulators with `tl.ones((rank, rank), **tl.context(tensor))`. Tensors created
inside the decomposition, next to a cuda input: all in the input's context, it runs.
Stand-in: `tl_context`, `random_cp` and one ALS sweep (Gram product + MTTKRP) on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def tl_context(tensor):
    return {"dtype": tensor.dtype, "device": tensor.device}

def random_cp(shape, rank, **context):
    factors = [torch.randn(s, rank, **context) for s in shape]
    weights = torch.ones(rank, **context)
    return weights, factors

def unfold(tensor, mode):
    return tensor.movedim(mode, 0).reshape(tensor.shape[mode], -1)

def khatri_rao(matrices):
    out = matrices[0]
    for m in matrices[1:]:
        out = (out.unsqueeze(1) * m.unsqueeze(0)).reshape(-1, out.shape[-1])
    return out

def initialize_cp(tensor, rank, init="random"):
    return random_cp(tuple(tensor.shape), rank, **tl_context(tensor))

def parafac(tensor, rank):
    weights, factors = initialize_cp(tensor, rank)
    for mode in range(tensor.ndim):
        pseudo_inverse = torch.ones((rank, rank), **tl_context(tensor))
        for i, factor in enumerate(factors):
            if i != mode:
                pseudo_inverse = pseudo_inverse * (factor.T @ factor)
        mttkrp = unfold(tensor, mode) @ khatri_rao([f for j, f in enumerate(factors) if j != mode])
        factors[mode] = mttkrp / (1.0 + pseudo_inverse.sum(0))
    return weights, factors

tensor = torch.randn(10, 10, 4, device="cuda:0")
'''
CELL = '''
cp = parafac(tensor, rank=5)
print(cp[0].device, [f.device for f in cp[1]])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
