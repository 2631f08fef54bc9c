"""Look-alike: tntorch's GPU test builds a TT tensor on cuda from a CPU array and compares its `.torch().cpu()` decompression with the CPU original.

Source: https://github.com/rballester/tntorch/blob/master/tests/test_gpu.py
The test draws `X = torch.rand(...)` on the host, builds `tn.Tensor(X, ranks_tt=3, device=device)`
(cores on the GPU) and checks `tn.relative_error(X, y)` after `y = ... .torch().cpu()`: host data,
GPU cores, and a comparison made only after the decompression is brought back to the CPU. Mixed
devices in one cell on purpose; it runs.
Stand-in: a TT "decomposition" whose cores are built from X and moved to cuda:0 (no SVD), the
full-tensor contraction on cuda and the error on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class Tensor:
    def __init__(self, X, ranks_tt, device="cpu"):
        n = X.shape
        self.cores = [torch.ones(1 if i == 0 else ranks_tt, n[i], 1 if i == len(n) - 1 else ranks_tt).to(device)
                      for i in range(len(n))]

    def torch(self):
        full = self.cores[0]
        for core in self.cores[1:]:
            full = torch.tensordot(full, core, dims=([full.ndim - 1], [0]))
        return full.squeeze(0).squeeze(-1)

def relative_error(gt, approx):
    return torch.norm(gt - approx) / torch.norm(gt)

device = "cuda:0"
X = torch.rand(8, 8, 8)
'''
CELL = '''
y = Tensor(X, ranks_tt=3, device=device).torch().cpu()
err = relative_error(X, y)
print(err.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
