"""TensorLy `parafac` with the PyTorch backend on a cuda tensor: the ALS `pseudo_inverse` is created on the CPU.

Source: https://github.com/tensorly/tensorly/issues/242
The user moves a tensor to the GPU (`tensor_ = tl.tensor(org_tensor, device='cuda')`,
`tensor_ = tensor_.to('cuda')`, context `{'dtype': torch.float32, 'device': cuda:0}`) and runs
PARAFAC; it fails in the ALS loop at `pseudo_inverse = pseudo_inverse*tl.dot(tl.conj(tl.transpose(factor)), factor)`
with one operand on the CPU. In that TensorLy version the `pseudo_inverse` accumulator was
made without `**tl.context(tensor)`; the maintainer's snippet on the development version
(where it is built in the tensor's context) keeps every factor on cuda:0.
Stand-in: `parafac` with a projection-based initialisation in the tensor's context and the ALS
update loop; unfolding with movedim/reshape.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def tl_context(tensor):
    return {"dtype": tensor.dtype, "device": tensor.device}

def unfold(tensor, mode):
    return tensor.movedim(mode, 0).reshape(tensor.shape[mode], -1)

def khatri_rao(matrices):
    out = matrices[0]
    for m in matrices[1:]:
        out = (out.unsqueeze(1) * m.unsqueeze(0)).reshape(-1, out.shape[-1])
    return out

def parafac(tensor, rank, n_iter_max=2):
    factors = [unfold(tensor, mode) @ torch.ones(unfold(tensor, mode).shape[1], rank, **tl_context(tensor))
               for mode in range(tensor.ndim)]          # initialize_cp (svd stand-in)
    for _ in range(n_iter_max):
        for mode in range(tensor.ndim):
            pseudo_inverse = torch.ones((rank, rank), dtype=tensor.dtype)
            for i, factor in enumerate(factors):
                if i != mode:
                    pseudo_inverse = pseudo_inverse * (torch.conj(factor.T) @ factor)
            others = [factors[j] for j in range(tensor.ndim) if j != mode]
            mttkrp = unfold(tensor, mode) @ khatri_rao(others)
            factors[mode] = mttkrp / (1.0 + pseudo_inverse.sum(0))    # solve(pseudo_inverse, mttkrp) stand-in
    return factors

org_tensor = torch.rand(10, 10, 4)
tensor_ = org_tensor.to("cuda:0")
'''
CELL = '''
factors = parafac(tensor_, rank=5)
print([f.device for f in factors])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["pseudo_inverse"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("pseudo_inverse = torch.ones((rank, rank), dtype=tensor.dtype)",
                  "pseudo_inverse = torch.ones((rank, rank), **tl_context(tensor))")
CLEAN = False
