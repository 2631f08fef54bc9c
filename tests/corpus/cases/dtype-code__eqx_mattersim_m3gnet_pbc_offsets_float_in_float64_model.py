"""MatterSim M3GNet run in double precision: `pbc_offsets.float()` is hard-coded and meets the float64 cell.

Source: https://github.com/microsoft/mattersim/pull/156
"add double precision (float64) inference support": running the MatterSim potential with `model.double()`
and float64 positions/cell breaks in the M3GNet forward, where the periodic image offsets are cast with
`pbc_offsets.float()` before being multiplied with the (float64) cell; the PR changes it to
`pbc_offsets.to(pos.dtype)`. Stand-in: the edge-vector computation of M3GNet (positions, cell, integer
offsets from the neighbour list) and a small radial readout.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class M3Gnet(nn.Module):
    def __init__(self, n_rbf=8, cutoff=5.0):
        super().__init__()
        self.rbf_centers = nn.Parameter(torch.linspace(0, cutoff, n_rbf), requires_grad=False)
        self.readout = nn.Linear(n_rbf, 1)

    def forward(self, input):
        pos, cell = input["atom_pos"], input["cell"]
        edge_index, pbc_offsets = input["edge_index"], input["pbc_offsets"]
        shift = torch.matmul(pbc_offsets.float(), cell)
        edge_vec = pos[edge_index[1]] - pos[edge_index[0]] + shift
        d = edge_vec.norm(dim=-1, keepdim=True)
        rbf = torch.exp(-(d - self.rbf_centers) ** 2)
        return self.readout(rbf).sum()

model = M3Gnet().double()                      # MatterSimCalculator(..., dtype="float64")
input = {
    "atom_pos": torch.tensor([[0.0, 0.0, 0.0], [1.36, 1.36, 1.36]], dtype=torch.float64),
    "cell": torch.tensor([[0.0, 2.72, 2.72], [2.72, 0.0, 2.72], [2.72, 2.72, 0.0]], dtype=torch.float64),
    "edge_index": torch.tensor([[0, 1, 0], [1, 0, 1]]),
    "pbc_offsets": torch.tensor([[0, 0, 0], [0, 0, 0], [-1, 0, 0]]),
}
'''
CELL = '''
energy = model(input)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["pbc_offsets"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("pbc_offsets.float()", "pbc_offsets.to(pos.dtype)")
CLEAN = False
