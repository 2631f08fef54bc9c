"""torchcfm's `OTPlanSampler`: an exact OT plan solved in float64 NumPy indexes float32 torch batches.

Source: https://github.com/atong01/conditional-flow-matching/blob/main/torchcfm/optimal_transport.py
Look-alike: `get_map` takes `a, b = pot.unif(x0.shape[0]), pot.unif(x1.shape[0])` (float64 NumPy),
`M = torch.cdist(x0, x1) ** 2` (float32 torch), solves `pot.emd(a, b, M.detach().cpu().numpy())` and
`sample_map` draws index pairs with `np.random.choice` on the flattened plan; the batches are then
indexed with those NumPy int64 arrays. Mixed libraries and dtypes by design, as the maintainer explains
in issue #136 (exact OT runs on the CPU). Stand-ins: `pot.unif` and `pot.emd` (a greedy plan on the
sorted costs); plain CPU tensors.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

class pot:
    @staticmethod
    def unif(n):
        return np.ones((n,)) / n
    @staticmethod
    def emd(a, b, M):
        """Stand-in for ot.emd: north-west corner plan on the cost-sorted order (float64)."""
        n, m = M.shape
        order_i, order_j = np.argsort(M.min(1)), np.argsort(M.min(0))
        P = np.zeros((n, m))
        a, b = a.copy(), b.copy()
        i = j = 0
        while i < n and j < m:
            t = min(a[order_i[i]], b[order_j[j]])
            P[order_i[i], order_j[j]] = t
            a[order_i[i]] -= t
            b[order_j[j]] -= t
            if a[order_i[i]] <= 1e-12: i += 1
            if b[order_j[j]] <= 1e-12: j += 1
        return P

class OTPlanSampler:
    def __init__(self, method="exact"):
        self.ot_fn = pot.emd

    def get_map(self, x0, x1):
        a, b = pot.unif(x0.shape[0]), pot.unif(x1.shape[0])
        if x0.dim() > 2:
            x0 = x0.reshape(x0.shape[0], -1)
        if x1.dim() > 2:
            x1 = x1.reshape(x1.shape[0], -1)
        M = torch.cdist(x0, x1) ** 2
        p = self.ot_fn(a, b, M.detach().cpu().numpy())
        return p

    def sample_map(self, pi, batch_size, replace=True):
        p = pi.flatten()
        p = p / p.sum()
        choices = np.random.choice(pi.shape[0] * pi.shape[1], p=p, size=batch_size, replace=replace)
        return np.divmod(choices, pi.shape[1])

    def sample_plan(self, x0, x1, replace=True):
        pi = self.get_map(x0, x1)
        i, j = self.sample_map(pi, x0.shape[0], replace=replace)
        return x0[i], x1[j]

ot_sampler = OTPlanSampler(method="exact")
x0 = torch.randn(64, 2)
x1 = torch.randn(64, 2) * 0.5 + 3
t = torch.rand(64, 1)
'''
CELL = '''
x0, x1 = ot_sampler.sample_plan(x0, x1)
xt = t * x1 + (1 - t) * x0
ut = x1 - x0
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
