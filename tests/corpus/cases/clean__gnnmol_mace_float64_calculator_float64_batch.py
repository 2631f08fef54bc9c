"""Look-alike: a float64 MACE model driven by a calculator created with `default_dtype="float64"` (float64 batches on purpose).

Source: https://github.com/Quantum-Accelerators/quacc/pull/1400
quacc switched its MACE calculator to `default_dtype="float64"` by default: the foundation model's
buffers (`atomic_energies`) and weights are float64, and the calculator then builds the one-hot
`node_attrs` and positions in float64 too, so the float64 matmuls are intended and consistent.
Stand-in: the calculator (torch.load replaced by building a float64 model), the E0 block and a readout;
the float64 tensors here are deliberate, not a dtype bug.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class AtomicEnergiesBlock(nn.Module):
    def __init__(self, atomic_energies):
        super().__init__()
        self.register_buffer("atomic_energies", torch.tensor(atomic_energies))

    def forward(self, x):
        return torch.matmul(x, self.atomic_energies)

class MACE(nn.Module):
    def __init__(self, atomic_numbers, atomic_energies):
        super().__init__()
        self.atomic_numbers = atomic_numbers
        self.atomic_energies_fn = AtomicEnergiesBlock(atomic_energies)
        self.readout = nn.Linear(len(atomic_numbers), 1)

    def forward(self, data):
        node_e0 = self.atomic_energies_fn(data["node_attrs"])
        node_inter = self.readout(data["node_attrs"]).squeeze(-1)
        return {"energy": (node_e0 + node_inter).sum()}

class MACECalculator:
    def __init__(self, model, device="cpu", default_dtype="float64"):
        self.dtype = {"float32": torch.float32, "float64": torch.float64}[default_dtype]
        self.model = model.to(device=device, dtype=self.dtype)
        self.device = torch.device(device)

    def get_potential_energy(self, numbers):
        z = self.model.atomic_numbers
        node_attrs = torch.zeros(len(numbers), len(z), dtype=self.dtype, device=self.device)
        for i, n in enumerate(numbers):
            node_attrs[i, z.index(n)] = 1.0
        return self.model({"node_attrs": node_attrs})["energy"].item()

mace_mp_model = MACE([1, 6, 8], [-13.6, -1029.0, -2041.0]).double()    # mace_mp(model="medium")
calc = MACECalculator(mace_mp_model, device="cpu", default_dtype="float64")
numbers = [8, 1, 1]
'''
CELL = '''
energy = calc.get_potential_energy(numbers)
print(energy, calc.model.atomic_energies_fn.atomic_energies.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
