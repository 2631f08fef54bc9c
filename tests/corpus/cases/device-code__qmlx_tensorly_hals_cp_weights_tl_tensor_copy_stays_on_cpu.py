"""TensorLy non-negative CP (HALS) with the PyTorch backend on the GPU: `tl.tensor(tl.ones(rank), **context)` leaves the weights on the CPU.

Source: https://github.com/tensorly/tensorly/pull/535
While fitting PARAFAC2 / non-negative CP with PyTorch tensors, the author found that `tl.tensor()`
copies the provided data under a `with torch.device(device):` context, which "does not move the
tensor to a different device": the HALS weights made as `tl.tensor(tl.ones(rank), **tl.context(tensor))`
stay on the CPU and then meet the cuda factors. The fix passes the context straight to `tl.ones()`.
Stand-in: `tl_tensor` copying an existing tensor (keeping its device), `non_negative_parafac_hals`
building its weights and the first MTTKRP product.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def tl_context(tensor):
    return {"dtype": tensor.dtype, "device": tensor.device}

def tl_tensor(data, dtype=None, device=None):
    if isinstance(data, torch.Tensor):
        return data.clone().to(dtype=dtype)        # copied under `with torch.device(device)`: not moved
    return torch.tensor(data, dtype=dtype, device=device)

def unfold(tensor, mode):
    return tensor.movedim(mode, 0).reshape(tensor.shape[mode], -1)

def non_negative_parafac_hals(tensor, rank):
    factors = [torch.rand(tensor.shape[m], rank).to(tensor.device) for m in range(tensor.ndim)]
    weights = tl_tensor(torch.ones(rank), **tl_context(tensor))
    out = []
    for mode, factor in enumerate(factors):
        out.append(factor * weights)
    return weights, out

t = torch.rand(3, 4, 4).to("cuda:0")
'''
CELL = '''
weights, factors = non_negative_parafac_hals(t, rank=3)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("weights = tl_tensor(torch.ones(rank), **tl_context(tensor))",
                  "weights = torch.ones(rank, **tl_context(tensor))")
CLEAN = False
