"""TensorLy `partial_tucker` on a cuda matrix with `rank=[16, 32]`: the SVD pads missing singular vectors with a CPU random block.

Source: https://github.com/tensorly/tensorly/issues/503
`x = torch.randn((72, 27)).cuda()`; `tl.decomposition.partial_tucker(x, rank=[16, 32], modes=[0, 1])`
fails in `initialize_tucker` -> `svd_interface`: asking for 32 vectors of a mode of size 27 makes
the SVD complete U with random columns "created on the CPU as part of the process, which cannot
be concatenated with the GPU" (`rank=16` works, and everything works on the CPU). Creating the
filler in the matrix's context fixes it.
Stand-in: `svd_interface` (projection instead of a real SVD) that completes U with a random
block when n_eigenvecs exceeds the mode size; `initialize_tucker` and `partial_tucker` calling it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def unfold(tensor, mode):
    return tensor.movedim(mode, 0).reshape(tensor.shape[mode], -1)

def svd_interface(matrix, n_eigenvecs):
    dim_1, dim_2 = matrix.shape
    k = min(dim_1, dim_2, n_eigenvecs)
    U = matrix @ torch.ones(dim_2, k, dtype=matrix.dtype, device=matrix.device)   # truncated SVD stand-in
    if n_eigenvecs > k:
        fill = torch.randn(dim_1, n_eigenvecs - k, dtype=matrix.dtype)
        U = torch.cat([U, fill], dim=1)
    return U

def initialize_tucker(tensor, rank, modes):
    return [svd_interface(unfold(tensor, mode), n_eigenvecs=rank[i]) for i, mode in enumerate(modes)]

def partial_tucker(tensor, rank, modes):
    factors = initialize_tucker(tensor, rank, modes)
    core = factors[0].T @ tensor
    return core, factors

x = torch.randn((72, 27)).to("cuda:0")
'''
CELL = '''
result = partial_tucker(x, rank=[16, 32], modes=[0, 1])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["fill"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("fill = torch.randn(dim_1, n_eigenvecs - k, dtype=matrix.dtype)",
                  "fill = torch.randn(dim_1, n_eigenvecs - k, dtype=matrix.dtype, device=matrix.device)")
CLEAN = False
