"""TensorLy `parafac(x, 4)` on a cuda tensor with a mode of size 3: the SVD initialisation pads the factor with a CPU random block.

Source: https://github.com/tensorly/tensorly/issues/507
`tensorly.set_backend('pytorch')`; for `device in ['cpu', 'cuda']`: `x = torch.rand([100, 100, 3],
device=device)`; `tensorly.decomposition.parafac(x, 4)` works on the CPU and fails on cuda with
"Expected all tensors ... cuda:0 and cpu! (... argument tensors in method wrapper_cat)". When the
rank exceeds a mode's size, `initialize_cp` completes the SVD factor with random columns that were
not created in the tensor's context; the maintainer points to the fix merged in #504.
Stand-in: `initialize_cp` (projection instead of SVD, random completion) and the first ALS
product; unfolding with movedim/reshape.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def unfold(tensor, mode):
    return tensor.movedim(mode, 0).reshape(tensor.shape[mode], -1)

def initialize_cp(tensor, rank):
    factors = []
    for mode in range(tensor.ndim):
        U = unfold(tensor, mode) @ torch.ones(unfold(tensor, mode).shape[1], min(rank, tensor.shape[mode]),
                                              dtype=tensor.dtype, device=tensor.device)
        if tensor.shape[mode] < rank:
            random_part = torch.rand(U.shape[0], rank - tensor.shape[mode], dtype=tensor.dtype)
            U = torch.cat([U, random_part], dim=1)
        factors.append(U)
    return factors

def parafac(tensor, rank):
    factors = initialize_cp(tensor, rank)
    gram = torch.ones(rank, rank, dtype=tensor.dtype, device=tensor.device)
    for f in factors:
        gram = gram * (f.T @ f)
    return torch.ones(rank, dtype=tensor.dtype, device=tensor.device), factors

x = torch.rand([100, 100, 3])
y = parafac(x, 4)
x = torch.rand([100, 100, 3], device="cuda:0")
'''
CELL = '''
y = parafac(x, 4)
print(x.device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["random_part"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("random_part = torch.rand(U.shape[0], rank - tensor.shape[mode], dtype=tensor.dtype)",
                  "random_part = torch.rand(U.shape[0], rank - tensor.shape[mode], dtype=tensor.dtype, device=tensor.device)")
CLEAN = False
