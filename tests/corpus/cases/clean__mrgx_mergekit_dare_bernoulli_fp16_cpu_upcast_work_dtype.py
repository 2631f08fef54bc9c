"""Look-alike: mergekit's DARE sparsification upcasts fp16 CPU task vectors to float32 for `torch.bernoulli` and casts the result back.

Source: https://github.com/arcee-ai/mergekit/blob/main/mergekit/sparsify.py
`bernoulli()` picks `work_dtype = torch.float32` when the tensor is fp16 on the CPU ("torch.bernoulli
not implemented for float16 on CPU, upcast to float32"), builds the mask with
`torch.full_like(input=tensor, ..., dtype=work_dtype)`, applies it to `tensor.to(work_dtype)` and
returns `res.to(tensor.dtype)`; `magnitude()` likewise sorts a float32 copy of the magnitudes on the
CPU. The float32/float16 mix is internal and undone before the deltas are summed.
Stand-in: sparsify.py's `rescaled_masked_tensor`, `magnitude`, `bernoulli` and `sparsify` (random
and magnitude methods); the task vectors are fp16 differences of small in-memory checkpoints.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from enum import Enum
import torch

class SparsificationMethod(str, Enum):
    magnitude = "magnitude"
    random = "random"

def rescaled_masked_tensor(tensor, mask, norm, eps=1e-7):
    masked = tensor * mask
    if norm is None:
        return masked
    before_scale = tensor.abs().sum()
    after_scale = masked.abs().sum()
    if before_scale < eps or after_scale < eps:
        return masked
    return masked * (before_scale / after_scale)

def magnitude(tensor, density, rescale_norm=None):
    if density >= 1:
        return tensor
    k = int(density * tensor.numel())
    assert k > 0, "not gonna zero out the whole tensor buddy"
    mask = torch.zeros_like(tensor)
    w = tensor.abs().view(-1)
    if w.device.type == "cpu":
        w = w.float()
    topk = torch.argsort(w, descending=True)[:k]
    mask.view(-1)[topk] = 1
    return rescaled_masked_tensor(tensor, mask, rescale_norm)

def bernoulli(tensor, density, rescale_norm=None):
    if density >= 1:
        return tensor
    if (tensor.device.type != "cpu") or tensor.dtype == torch.bfloat16:
        work_dtype = tensor.dtype
    else:
        # torch.bernoulli not implemented for float16 on CPU, upcast to float32
        work_dtype = torch.float32
    mask = torch.bernoulli(torch.full_like(input=tensor, fill_value=density, dtype=work_dtype))
    res = rescaled_masked_tensor(tensor.to(work_dtype), mask, rescale_norm)
    return res.to(tensor.dtype)

def sparsify(tensor, density, method, rescale_norm=None):
    if method == SparsificationMethod.magnitude:
        return magnitude(tensor, density=density, rescale_norm=rescale_norm)
    elif method == SparsificationMethod.random:
        return bernoulli(tensor, density=density, rescale_norm=rescale_norm)
    raise NotImplementedError(method)

torch.manual_seed(0)
base = torch.randn(32, 64).half()
finetunes = [base + 0.01 * torch.randn(32, 64).half() for _ in range(2)]
deltas = [ft - base for ft in finetunes]          # fp16 task vectors on the CPU
'''
CELL = '''
dare = [sparsify(d, density=0.3, method=SparsificationMethod.random) for d in deltas]
ties = [sparsify(d, density=0.3, method=SparsificationMethod.magnitude) for d in deltas]
merged = base + sum(dare) / len(dare)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
