"""MACE ASE calculator after an update: `default_dtype` now float64, the user's model trained in float32.

Source: https://github.com/ACEsuit/mace/issues/84
After pulling MACE, `walker.get_potential_energy()` with the user's MACE calculator failed with
"expected scalar type Double but found Float" in `atomic_energies_fn(data["node_attrs"])`. The updated
`MACECalculator` sets `torch.set_default_dtype(float64)` by default, so the one-hot `node_attrs` it builds
are float64, while the model (and its `atomic_energies` buffer) was trained and saved in float32; the
fix is to match them (`default_dtype="float32"` for the calculator, or convert the model with
`.double()`). Stand-in: the E0 block, a readout and the calculator building the one-hot batch.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class AtomicEnergiesBlock(nn.Module):
    def __init__(self, atomic_energies):
        super().__init__()
        self.register_buffer("atomic_energies", torch.tensor(atomic_energies, dtype=torch.float32))

    def forward(self, x):
        return torch.matmul(x, self.atomic_energies)

class ScaleShiftMACE(nn.Module):
    def __init__(self, z_table, atomic_energies):
        super().__init__()
        self.z_table = z_table
        self.atomic_energies_fn = AtomicEnergiesBlock(atomic_energies)
        self.node_embedding = nn.Linear(len(z_table), 16, bias=False)
        self.readout = nn.Linear(16, 1)

    def forward(self, data):
        node_e0 = self.atomic_energies_fn(data["node_attrs"])
        node_feats = self.node_embedding(data["node_attrs"])
        return {"energy": (node_e0 + self.readout(node_feats).squeeze(-1)).sum()}

class MACECalculator:
    def __init__(self, model, device="cpu", default_dtype="float64"):
        self.model = model.to(device)
        self.device = torch.device(device)
        self.dtype = {"float32": torch.float32, "float64": torch.float64}[default_dtype]

    def get_potential_energy(self, atoms):
        z = self.model.z_table
        node_attrs = torch.zeros(len(atoms), len(z), dtype=self.dtype, device=self.device)
        for i, n in enumerate(atoms):
            node_attrs[i, z.index(n)] = 1.0
        return self.model({"node_attrs": node_attrs})["energy"].item()

model = ScaleShiftMACE([1, 8], [-13.6, -2041.0])            # torch.load("MACE_run-123.model"), float32
calc = MACECalculator(model, device="cpu")                  # default_dtype now "float64"
walker = [8, 1, 1]
'''
CELL = '''
energy = calc.get_potential_energy(walker)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["calc.model"]
FIX = "namespace"
REFERENCE_FIX = '''
calc.model.double()
'''
REFERENCE_EDIT = None
CLEAN = False
