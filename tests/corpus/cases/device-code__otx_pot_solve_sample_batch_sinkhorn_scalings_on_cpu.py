"""POT `ot.solve_sample_batch` on CUDA samples: the batched Sinkhorn scalings are allocated on the CPU.

Source: https://github.com/PythonOT/POT/issues/783
The user called `ot.solve_sample_batch(x.cuda(), y.cuda(), reg=1)` on two (24, 100, 1) batches and got
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" (Colab
and Linux). The fix (PR #851) explains it: in `bregman_projection_batch` the scaling vectors `f`/`g` were
allocated with a bare `nx.ones((B, n))`, i.e. on the default (CPU) device, and met the CUDA kernel `K` on
the first iteration; they now get the inputs' device via `type_as`. Stand-ins: POT's batched squared
Euclidean cost, Gibbs kernel and Bregman projections written with torch ops (the torch backend).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def dist_batch(X_a, X_b):
    return torch.cdist(X_a, X_b) ** 2

def bregman_projection_batch(K, a, b, max_iter=10):
    B, n, m = K.shape
    f = torch.ones((B, n))
    g = torch.ones((B, m))
    for _ in range(max_iter):
        g = b / torch.einsum("bij,bi->bj", K, f)
        f = a / torch.einsum("bij,bj->bi", K, g)
    return f[:, :, None] * K * g[:, None, :]

def solve_sample_batch(X_a, X_b, reg, a=None, b=None, max_iter=10):
    B, n, _ = X_a.shape
    m = X_b.shape[1]
    M = dist_batch(X_a, X_b)
    if a is None:
        a = torch.full((B, n), 1.0 / n, dtype=M.dtype, device=M.device)
    if b is None:
        b = torch.full((B, m), 1.0 / m, dtype=M.dtype, device=M.device)
    K = torch.exp(-M / reg)
    plan = bregman_projection_batch(K, a, b, max_iter=max_iter)
    value = (plan * M).sum((1, 2))
    return value, plan

x = torch.zeros((24, 100, 1))
y = torch.zeros((24, 100, 1))
x_cuda = x.to("cuda:0")      # x.cuda() in the report
y_cuda = y.to("cuda:0")
'''
CELL = '''
value, plan = solve_sample_batch(x_cuda, y_cuda, reg=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["f"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    f = torch.ones((B, n))
    g = torch.ones((B, m))''', '''    f = torch.ones((B, n), dtype=K.dtype, device=K.device)
    g = torch.ones((B, m), dtype=K.dtype, device=K.device)''')
CLEAN = False
