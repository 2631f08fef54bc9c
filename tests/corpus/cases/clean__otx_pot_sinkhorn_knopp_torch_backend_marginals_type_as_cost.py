"""POT's Sinkhorn-Knopp on the torch backend: default marginals and scalings are built `type_as` the GPU cost matrix.

Source: https://github.com/PythonOT/POT/blob/master/ot/bregman/_sinkhorn.py
Look-alike: `sinkhorn_knopp(a, b, M, reg)` called with empty `a`/`b` fills them with
`nx.full((M.shape[0],), 1.0 / M.shape[0], type_as=M)`, starts `u`/`v` with `nx.ones(dim, type_as=M) / dim`,
and iterates `v = b / nx.dot(K.T, u)`, `u = 1.0 / nx.dot(Kp, v)`; the float `reg` and the Python-int sizes
never become CPU tensors. The user builds `M = ot.dist(xs, xt)` from GPU samples and sums `G * M`.
Stand-ins: the torch backend's `full`/`ones` with `type_as`, and `ot.dist` as squared `torch.cdist`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class TorchBackend:
    def full(self, shape, fill_value, type_as=None):
        return torch.full(shape, fill_value, dtype=type_as.dtype, device=type_as.device)
    def ones(self, shape, type_as=None):
        return torch.ones(shape, dtype=type_as.dtype, device=type_as.device)
    def exp(self, a):
        return torch.exp(a)
    def dot(self, a, b):
        return a @ b

nx = TorchBackend()

def dist(x1, x2):
    return torch.cdist(x1, x2) ** 2

def sinkhorn_knopp(a, b, M, reg, numItermax=50):
    if len(a) == 0:
        a = nx.full((M.shape[0],), 1.0 / M.shape[0], type_as=M)
    if len(b) == 0:
        b = nx.full((M.shape[1],), 1.0 / M.shape[1], type_as=M)
    dim_a = a.shape[0]
    dim_b = b.shape[0]
    u = nx.ones(dim_a, type_as=M) / dim_a
    v = nx.ones(dim_b, type_as=M) / dim_b
    K = nx.exp(M / (-reg))
    Kp = (1 / a).reshape(-1, 1) * K
    for ii in range(numItermax):
        KtransposeU = nx.dot(K.T, u)
        v = b / KtransposeU
        u = 1.0 / nx.dot(Kp, v)
    return u.reshape((-1, 1)) * K * v.reshape((1, -1))

device = torch.device("cuda:0")
xs = torch.randn(50, 2).to(device)
xt = (torch.randn(60, 2) + 4).to(device)
M = dist(xs, xt)
M = M / M.max()
'''
CELL = '''
G = sinkhorn_knopp(torch.tensor([]), torch.tensor([]), M, reg=1e-1)
loss = (G * M).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
