"""apex ASP `prune_trained_model` called before `model.cuda()`: the 2:4 mask patterns are hard-coded onto the GPU.

Source: https://github.com/NVIDIA/apex/pull/1462
"[ASP] Allocate the auxiliary tensors (e.g., mask) in the same device as the model itself":
"`prune_trained_model()` could be called before or after `model.cuda()`. If `prune_trained_model()` is
called before `model.cuda()`, those auxiliary tensors are allocated on the GPUs, while the model itself is
not, and PyTorch does not permit any op to use tensors on different devices." In `sparse_masklib.mn_1d_best`
the patterns are `compute_valid_1d_patterns(m,n).cuda()` and the mask is a `torch.cuda.IntTensor`, so
`torch.matmul(mat.abs(), patterns.t())` mixes the CPU weight with GPU patterns; the PR allocates them on
the weight's device.
Stand-in: ASP (init_model_for_pruning / init_optimizer_for_pruning / compute_sparse_masks /
prune_trained_model) and sparse_masklib (m4n2_1d) reduced to the m4n2_1d path without permutation; the
hard-coded `.cuda()` / `torch.cuda.IntTensor` are written with `"cuda:0"`. The edit is in a plain
function; the namespace object the GPU patterns meet is `model` (its CPU weights).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
from itertools import permutations
import torch
from torch import nn

valid_m4n2_1d_patterns = None
def compute_valid_1d_patterns(m, n):
    global valid_m4n2_1d_patterns
    if m == 4 and n == 2 and valid_m4n2_1d_patterns is not None:
        return valid_m4n2_1d_patterns
    patterns = [1.0] * n + [0.0] * (m - n)
    valid_patterns = torch.tensor(sorted(set(permutations(patterns))))
    if m == 4 and n == 2:
        valid_m4n2_1d_patterns = valid_patterns
    return valid_patterns

def reshape_1d(matrix, m):
    return matrix.view(-1, m), matrix.shape

def mn_1d_best(matrix, m, n):
    patterns = compute_valid_1d_patterns(m, n).to("cuda:0")
    mask = torch.ones(matrix.shape, dtype=torch.int32, device="cuda:0").view(-1, m)
    mat, shape = reshape_1d(matrix, m)
    pmax = torch.argmax(torch.matmul(mat.abs(), patterns.t()), dim=1)
    mask = patterns.index_select(0, pmax).to(torch.int32)
    mask = mask.view(matrix.shape)
    return mask

def m4n2_1d(mat, density):
    return mn_1d_best(mat, 4, 2)

def create_mask(tensor, pattern="m4n2_1d", density=0.5):
    shape = tensor.shape
    t = tensor.float().contiguous().view(shape[0], shape[1])
    mask = m4n2_1d(t, density)
    return mask.view(shape).to(tensor.dtype)

class ASP:
    __model = None
    __optimizer = None
    __sparse_parameters = []
    __calculate_mask = None

    @classmethod
    def init_model_for_pruning(cls, model, mask_calculator="m4n2_1d", whitelist=[nn.Linear]):
        cls.__model = model
        def create_mask_from_pattern(param):
            return create_mask(param, mask_calculator).bool()
        cls.__calculate_mask = create_mask_from_pattern
        for name, module in model.named_modules():
            if isinstance(module, tuple(whitelist)):
                p = module.weight
                mask = torch.ones_like(p).bool()
                module.register_buffer('__weight_mma_mask', mask)
                cls.__sparse_parameters.append((name, module, 'weight', p, mask, None))

    @classmethod
    def init_optimizer_for_pruning(cls, optimizer):
        cls.__optimizer = optimizer
        cls.__optimizer.__step = optimizer.step
        def __step(opt_self, *args, **kwargs):
            with torch.no_grad():
                for module_name, module, p_name, p, mask, pruned in cls.__sparse_parameters:
                    if p.grad is not None:
                        p.grad.mul_(mask)
            rval = opt_self.__step(*args, **kwargs)
            with torch.no_grad():
                for module_name, module, p_name, p, mask, pruned in cls.__sparse_parameters:
                    p.mul_(mask)
            return rval
        cls.__optimizer.step = types.MethodType(__step, cls.__optimizer)

    @classmethod
    def compute_sparse_masks(cls):
        with torch.no_grad():
            for module_name, module, p_name, p, mask, pruned in cls.__sparse_parameters:
                mask.copy_(cls.__calculate_mask(p))
                p.mul_(mask)

    @classmethod
    def prune_trained_model(cls, model, optimizer):
        cls.init_model_for_pruning(model, mask_calculator="m4n2_1d")
        cls.init_optimizer_for_pruning(optimizer)
        cls.compute_sparse_masks()

model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 16))   # still on the CPU
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
'''
CELL = '''
ASP.prune_trained_model(model, optimizer)
model = model.to("cuda:0")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    patterns = compute_valid_1d_patterns(m, n).to("cuda:0")
    mask = torch.ones(matrix.shape, dtype=torch.int32, device="cuda:0").view(-1, m)''',
                  '''    patterns = compute_valid_1d_patterns(m, n).to(matrix.device)
    mask = torch.ones(matrix.shape, dtype=torch.int32, device=matrix.device).view(-1, m)''')
CLEAN = False
