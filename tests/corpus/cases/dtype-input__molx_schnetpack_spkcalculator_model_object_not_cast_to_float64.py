"""SchNetPack `SpkCalculator(model_file=<nn.Module>, dtype=torch.float64)` builds float64 inputs but never casts the passed model object.

Source: https://github.com/atomistic-machine-learning/schnetpack/pull/727
"fixed dtype bug in calculator": since #709 `SpkCalculator` accepts a model object as well as a model
path. `_load_model` cast only a model loaded from a path (`load_model(...).to(dtype)`); for a model
object it did `model = model_file`, while the `AtomsConverter` built from the same `dtype` casts the
positions to float64. A float32 model run in a float64 calculator then fails in its first Linear
("mat1 and mat2 must have the same dtype"). The merged fix is `model = model_file.to(device).to(dtype)`.
Stand-ins: ase's `Calculator`/`Atoms` and schnetpack's `AtomsConverter`/`NeuralNetworkPotential`
reduced; `SpkCalculator.__init__`/`_load_model`/`calculate` keep the pre-fix structure.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Atoms:
    """ase.Atoms, reduced."""
    def __init__(self, numbers, positions):
        self.numbers = np.asarray(numbers)
        self.positions = np.asarray(positions, dtype=np.float64)

class Calculator:
    """ase.calculators.calculator.Calculator, reduced."""
    def __init__(self, **kwargs):
        self.results = {}
    def calculation_required(self, atoms, properties):
        return True
    def calculate(self, atoms=None, properties=None, system_changes=None):
        self.atoms = atoms
    def get_potential_energy(self, atoms=None):
        self.calculate(atoms)
        return self.results["energy"]

class AtomsConverter:
    """schnetpack.interfaces.AtomsConverter, reduced (neighbor list: all pairs)."""
    def __init__(self, neighbor_list=None, device="cpu", dtype=torch.float32, **kwargs):
        self.device = torch.device(device)
        self.dtype = dtype
    def __call__(self, atoms):
        n = len(atoms.numbers)
        idx_i, idx_j = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
        keep = (idx_i != idx_j).reshape(-1).numpy()
        inputs = {
            "_atomic_numbers": torch.from_numpy(atoms.numbers).long(),
            "_positions": torch.from_numpy(atoms.positions).to(self.dtype),
            "_idx_i": idx_i.reshape(-1)[keep],
            "_idx_j": idx_j.reshape(-1)[keep],
        }
        return {p: inputs[p].to(self.device) for p in inputs}

class NeuralNetworkPotential(nn.Module):
    """schnetpack.model.NeuralNetworkPotential(PaiNN, Atomwise), reduced."""
    def __init__(self, n_atom_basis=32, n_rbf=20, cutoff=5.0):
        super().__init__()
        self.embedding = nn.Embedding(100, n_atom_basis)
        self.register_buffer("offsets", torch.linspace(0, cutoff, n_rbf))
        self.filter = nn.Linear(n_rbf, n_atom_basis)
        self.outnet = nn.Sequential(nn.Linear(n_atom_basis, n_atom_basis), nn.SiLU(),
                                    nn.Linear(n_atom_basis, 1))
    def forward(self, inputs):
        R = inputs["_positions"]
        r_ij = (R[inputs["_idx_j"]] - R[inputs["_idx_i"]]).norm(dim=-1, keepdim=True)
        f_ij = torch.exp(-(r_ij - self.offsets) ** 2)
        x = self.embedding(inputs["_atomic_numbers"])
        msg = torch.zeros_like(x).index_add_(0, inputs["_idx_i"], self.filter(f_ij) * x[inputs["_idx_j"]])
        inputs["energy"] = self.outnet(x + msg).sum()
        return inputs

class SpkCalculator(Calculator):
    """schnetpack.interfaces.SpkCalculator after #709, before #727 (reduced)."""
    energy = "energy"
    def __init__(self, model_file, neighbor_list, energy_key="energy", energy_unit="kcal/mol",
                 position_unit="Angstrom", device="cpu", dtype=torch.float32,
                 converter=AtomsConverter, **kwargs):
        Calculator.__init__(self, **kwargs)
        self.converter = converter(neighbor_list=neighbor_list, device=device, dtype=dtype)
        self.energy_key = energy_key
        self.property_map = {self.energy: energy_key}
        self.model = self._load_model(model_file, device, dtype)
        self.property_units = {self.energy: 0.0433641 if energy_unit == "kcal/mol" else 1.0}

    def _load_model(self, model_file, device, dtype):
        if isinstance(model_file, str):
            model = torch.load(model_file, map_location=torch.device(device)).to(dtype)
        else:
            model = model_file
        model = model.eval()
        return model

    def calculate(self, atoms=None, properties=["energy"], system_changes=None):
        properties = [p for p, v in self.property_map.items() if v is not None]
        Calculator.calculate(self, atoms)
        model_inputs = self.converter(atoms)
        model_results = self.model(model_inputs)
        results = {}
        for prop in properties:
            results[prop] = (model_results[self.property_map[prop]].cpu().data.numpy().item()
                             * self.property_units[prop])
        self.results = results

# a PaiNN potential trained in float32, evaluated in double precision for MD
calculator = SpkCalculator(
    model_file=NeuralNetworkPotential(),
    neighbor_list=None,
    energy_key="energy",
    energy_unit="kcal/mol",
    position_unit="Angstrom",
    device="cpu",
    dtype=torch.float64,
)
atoms = Atoms([8, 1, 1], [[0.0, 0.0, 0.119], [0.0, 0.763, -0.477], [0.0, -0.763, -0.477]])
'''
CELL = '''
energy = calculator.get_potential_energy(atoms)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "same dtype")
CULPRITS = ["calculator.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            model = model_file\n",
    "            model = model_file.to(device).to(dtype)\n",
)
CLEAN = False
