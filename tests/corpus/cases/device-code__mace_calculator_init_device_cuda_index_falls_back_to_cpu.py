"""MACE calculator with `device="cuda:0"`: `init_device` only recognised the string "cuda", returned the CPU, and the batches went to the CPU while the models were loaded on cuda:0.

Source: https://github.com/ACEsuit/mace/pull/245
"Fix device initialization": "Specifying a different device when initializing a calculator throws
an error: RuntimeError: Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu!" with `model = mace_mp(device='cuda:0')` and a simulation. In
`MACECalculator.__init__` the models are loaded with `torch.load(..., map_location=device)` (cuda:0),
but `self.device = torch_tools.init_device(device)` compared `device_str == "cuda"` and fell through
to `torch.device("cpu")`; `calculate` then moves every batch to `self.device`. The PR makes
`init_device` accept "cuda:N". Stand-in: `init_device` without its CUDA availability checks and
logging, a MACE-shaped model (`atomic_energies_fn` on the one-hot node attributes, a readout), the
calculator's `calculate` reduced to the energy, an ASE `Atoms`-like object.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import logging
import torch
import torch.nn as nn

def init_device(device_str: str) -> torch.device:
    if device_str == "cuda":
        return torch.device("cuda")
    if device_str == "mps":
        return torch.device("mps")
    logging.info("Using CPU")
    return torch.device("cpu")

class AtomicData(dict):
    def to(self, device):
        return AtomicData({k: v.to(device) for k, v in self.items()})
    def clone(self):
        return AtomicData({k: v.clone() for k, v in self.items()})
    def to_dict(self):
        return dict(self)

class ScaleShiftMACE(nn.Module):
    def __init__(self, num_elements=89, hidden=32):
        super().__init__()
        self.atomic_energies_fn = nn.Linear(num_elements, 1, bias=False)
        self.node_embedding = nn.Linear(num_elements, hidden, bias=False)
        self.readout = nn.Sequential(nn.Linear(hidden + 3, hidden), nn.SiLU(), nn.Linear(hidden, 1))
    def forward(self, data, compute_stress=False):
        e0 = self.atomic_energies_fn(data["node_attrs"]).sum()
        h = torch.cat([self.node_embedding(data["node_attrs"]), data["positions"]], dim=-1)
        return {"energy": e0 + self.readout(h).sum()}

class MACECalculator:
    def __init__(self, model_paths, device: str, energy_units_to_eV=1.0, default_dtype="float32"):
        self.models = [ScaleShiftMACE() for _ in model_paths]            # torch.load(f=model_path, map_location=device)
        for model in self.models:
            model.to(device)  # shouldn't be necessary but seems to help with GPU
        self.device = init_device(device)
        self.results = {}
    def calculate(self, atoms=None, properties=None, system_changes=None):
        node_attrs = torch.nn.functional.one_hot(torch.tensor(atoms.numbers) - 1, 89).to(torch.get_default_dtype())
        batch_base = AtomicData(node_attrs=node_attrs, positions=torch.tensor(atoms.positions, dtype=torch.float32)).to(self.device)
        node_e0 = self.models[0].atomic_energies_fn(batch_base["node_attrs"])
        energies = []
        for model in self.models:
            batch = batch_base.clone()
            out = model(batch.to_dict(), compute_stress=False)
            energies.append(out["energy"].detach())
        self.results["energy"] = torch.stack(energies).mean()
        return self.results

def mace_mp(model="medium", device="", default_dtype="float32"):
    return MACECalculator(model_paths=[model], device=device, default_dtype=default_dtype)

class Atoms:
    def __init__(self, numbers, positions):
        self.numbers, self.positions = numbers, positions
        self.calc = None
    def get_potential_energy(self):
        return self.calc.calculate(self)["energy"]

calc = mace_mp(device="cuda:0")
atoms = Atoms(numbers=[8, 1, 1], positions=[[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]])
atoms.calc = calc
'''
CELL = '''
with torch.no_grad():
    energy = atoms.get_potential_energy()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["calc"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    if device_str == "cuda":
        return torch.device("cuda")''', '''    if "cuda" in device_str:
        return torch.device(device_str)''')
CLEAN = False
