"""MACECalculator with the float64 MACE universal model: the calculator builds a float32 batch, `atomic_energies` is float64.

Source: https://github.com/ACEsuit/mace/issues/200
`MACECalculator(model_path='2023-08-14-mace-universal.model', device="cuda")` then
`iron_bcc.get_potential_energy()` failed in `AtomicEnergiesBlock.forward`
(`torch.matmul(x, self.atomic_energies)`: "expected scalar type Double but found Float"). The
universal model was saved in float64 while the calculator's `default_dtype` was float32, so the
one-hot `node_attrs` it builds are float32; the answer was to create the calculator with
`default_dtype="float64"`. Stand-in: the calculator (torch.load replaced by building a float64
model; ASE atoms reduced to atomic numbers and positions), the E0 block and a one-layer readout; on the CPU.
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
        self.register_buffer("atomic_energies", torch.tensor(atomic_energies, dtype=torch.get_default_dtype()))

    def forward(self, x):                       # one-hot of elements [..., n_elements]
        return torch.matmul(x, self.atomic_energies)

class MACE(nn.Module):
    def __init__(self, atomic_numbers, atomic_energies):
        super().__init__()
        self.atomic_numbers = atomic_numbers
        self.atomic_energies_fn = AtomicEnergiesBlock(atomic_energies)
        self.readout = nn.Linear(len(atomic_numbers), 1)

    def forward(self, data, compute_stress=False):
        node_e0 = self.atomic_energies_fn(data["node_attrs"])
        node_inter = self.readout(data["node_attrs"]).squeeze(-1)
        return {"energy": (node_e0 + node_inter).sum()}

def _load_universal_model():
    # torch.load('2023-08-14-mace-universal.model'): the checkpoint is float64
    return MACE([26, 8, 1], [-3.4, -1.9, -0.5]).double()

class MACECalculator:
    def __init__(self, model_path, device, default_dtype="float32"):
        self.device = torch.device(device)
        self.model = _load_universal_model().to(self.device)
        self.dtype = {"float32": torch.float32, "float64": torch.float64}[default_dtype]
        self.z_table = self.model.atomic_numbers

    def get_potential_energy(self, atoms):
        numbers, positions = atoms
        idx = [self.z_table.index(z) for z in numbers]
        node_attrs = torch.zeros(len(idx), len(self.z_table), dtype=self.dtype, device=self.device)
        node_attrs[torch.arange(len(idx)), torch.tensor(idx)] = 1.0
        batch = {"node_attrs": node_attrs,
                 "positions": torch.tensor(positions, dtype=self.dtype, device=self.device)}
        out = self.model(batch, compute_stress=True)
        return out["energy"].item()

mace = MACECalculator(model_path="2023-08-14-mace-universal.model", device="cpu")

a = b = c = 2.8665
iron_bcc = ([26, 26], np.array([[0.0, 0.0, 0.0], [0.5 * a, 0.5 * b, 0.5 * c]]))   # crystal(["Fe","Fe"], ..., spacegroup=229)
'''
CELL = '''
pe = mace.get_potential_energy(iron_bcc)
print(pe)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "should be the same")
CULPRITS = ["mace"]
FIX = "namespace"
REFERENCE_FIX = '''
mace = MACECalculator(model_path="2023-08-14-mace-universal.model", device="cpu", default_dtype="float64")
'''
REFERENCE_EDIT = None
CLEAN = False
