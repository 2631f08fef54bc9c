"""SchNetPack `SpkCalculator(model, device="cuda")`: the ASE calculator moves its inputs to the GPU but never moves the model.

Source: https://github.com/atomistic-machine-learning/schnetpack/pull/197
Issue #195 ("Calculator device"): a user built the ASE interface with `SpkCalculator(model,
device="cuda", ...)` on a model loaded on the CPU and got a device error in `calculate`. The calculator
passed `device` to its `AtomsConverter`, so the input dict went to cuda, but it kept `self.model = model`
where it was; PR #197 "move model to device" adds `model.to(device)`. Stand-in: a SchNet-like
representation (embedding + distance filter + readout), the converter reduced to numbers/positions ->
tensors on `device`, ASE Atoms reduced to a tuple.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SchNetLike(nn.Module):
    def __init__(self, n_atom_basis=32, max_z=20, n_rbf=16, cutoff=5.0):
        super().__init__()
        self.embedding = nn.Embedding(max_z, n_atom_basis)
        self.filter_net = nn.Linear(n_rbf, n_atom_basis)
        self.readout = nn.Sequential(nn.Linear(n_atom_basis, n_atom_basis), nn.Tanh(), nn.Linear(n_atom_basis, 1))
        self.n_rbf, self.cutoff = n_rbf, cutoff

    def forward(self, inputs):
        z, R = inputs["_atomic_numbers"], inputs["_positions"]
        d = torch.cdist(R, R)
        mu = torch.linspace(0, self.cutoff, self.n_rbf, device=d.device)
        rbf = torch.exp(-10.0 * (d.unsqueeze(-1) - mu) ** 2)
        x = self.embedding(z)
        x = x + (self.filter_net(rbf) * x.unsqueeze(0)).sum(1)
        return {"energy": self.readout(x).sum()}

class AtomsConverter:
    def __init__(self, device="cpu"):
        self.device = device

    def __call__(self, atoms):
        numbers, positions = atoms
        return {"_atomic_numbers": torch.tensor(numbers).to(self.device),
                "_positions": torch.tensor(positions, dtype=torch.float32).to(self.device)}

class SpkCalculator:
    def __init__(self, model, device="cpu", energy="energy"):
        self.model = model
        self.atoms_converter = AtomsConverter(device=device)
        self.energy = energy
        self.results = {}

    def calculate(self, atoms):
        model_inputs = self.atoms_converter(atoms)
        model_results = self.model(model_inputs)
        self.results["energy"] = model_results[self.energy]
        return self.results

model = SchNetLike()                       # torch.load("best_model", map_location="cpu")
calculator = SpkCalculator(model, device="cuda:0", energy="energy")
atoms = ([8, 1, 1], np.array([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]]))
'''
CELL = '''
with torch.no_grad():
    results = calculator.calculate(atoms)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
