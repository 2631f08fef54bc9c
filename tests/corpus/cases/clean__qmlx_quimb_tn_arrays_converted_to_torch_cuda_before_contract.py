"""Look-alike: quimb tensor network optimised with torch on the GPU, every array converted with `apply_to_arrays(... .cuda())` before contracting.

Source: https://github.com/jcmgray/quimb/issues/177
Asked how to run quimb's torch optimisation example on cuda, the maintainer answers that it is
"as simple as calling `apply_to_arrays(lambda x: torch.tensor(x, dtype=torch.float32).cuda())`"
on the networks (or setting torch's default device); the user confirms it works. The MPS and the
Hamiltonian MPO start as NumPy arrays (float64, host) and are converted in place to float32 cuda
tensors before the energy contraction: host arrays next to a GPU loss on purpose, it runs.
Stand-in: a minimal TensorNetwork holding a list of arrays with `apply_to_arrays`, and an energy
contraction with einsum; cuda:0 is used explicitly.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

class TensorNetwork:
    def __init__(self, arrays):
        self.arrays = list(arrays)

    def apply_to_arrays(self, fn):
        self.arrays = [fn(a) for a in self.arrays]
        return self

rng = np.random.default_rng(7)
L, D, d = 4, 3, 2
psi = TensorNetwork([rng.normal(size=(D, d, D)) for _ in range(L)])      # MPS_rand_state
H = TensorNetwork([rng.normal(size=(d, d)) for _ in range(L)])           # local Hamiltonian terms

to_backend = lambda x: torch.tensor(x, dtype=torch.float32).to("cuda:0")
psi.apply_to_arrays(to_backend)
H.apply_to_arrays(to_backend)

def energy(psi, H):
    total = 0.0
    for A, h in zip(psi.arrays, H.arrays):
        total = total + torch.einsum("asb,st,atb->", A, h, A) / torch.einsum("asb,asb->", A, A)
    return total
'''
CELL = '''
e = energy(psi, H)
print(e.device, e.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
