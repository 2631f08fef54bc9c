"""Look-alike: SchNetPack's ASE interface computes the neighbour list with ASE/NumPy on the CPU and the converter moves the inputs to the model's device.

Source: https://github.com/atomistic-machine-learning/schnetpack/blob/master/src/schnetpack/interfaces/ase_interface.py
`SpkCalculator` moves the model to `device` and builds its `AtomsConverter(neighbor_list=ASENeighborList(cutoff),
device=device)`: pair indices `_idx_i`/`_idx_j` are computed in NumPy, turned into tensors and sent to
`device` together with `_atomic_numbers`/`_positions`. CPU-side NumPy next to a cuda model is intended.
Stand-in: a brute-force NumPy neighbour list, the converter and a pairwise model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ASENeighborList:
    def __init__(self, cutoff):
        self.cutoff = cutoff
    def __call__(self, positions):
        d = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
        idx_i, idx_j = np.nonzero((d < self.cutoff) & (d > 0))
        return idx_i, idx_j

class AtomsConverter:
    def __init__(self, neighbor_list, device="cpu"):
        self.neighbor_list, self.device = neighbor_list, device
    def __call__(self, numbers, positions):
        idx_i, idx_j = self.neighbor_list(positions)
        inputs = {"_atomic_numbers": torch.from_numpy(numbers), "_positions": torch.from_numpy(positions).float(),
                  "_idx_i": torch.from_numpy(idx_i), "_idx_j": torch.from_numpy(idx_j)}
        return {k: v.to(self.device) for k, v in inputs.items()}

class PairModel(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.embedding = nn.Embedding(10, dim)
        self.out = nn.Linear(dim, 1)
    def forward(self, inputs):
        h = self.embedding(inputs["_atomic_numbers"]) + 0.0 * inputs["_positions"].sum(-1, keepdim=True)
        return {"energy": self.out(h).sum() + 0.0 * (inputs["_idx_i"].sum() + inputs["_idx_j"].sum())}

device = "cuda:0"
model = PairModel().to(device)
converter = AtomsConverter(ASENeighborList(cutoff=5.0), device=device)
numbers = np.array([8, 1, 1])
positions = np.array([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]])
'''
CELL = '''
with torch.no_grad():
    results = model(converter(numbers, positions))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
