"""Orb force field through its ASE calculator with `device='cuda'`: the pretrained model itself was loaded on the CPU.

Source: https://github.com/orbital-materials/orb-models/issues/14
`ORBCalculator(orbff, device='cuda')` followed by `get_potential_energy()` failed inside
`GraphRegressor.predict` ("Inconsistent Device Error"): the calculator moves the atom graph it builds to
`device`, but it does not move the model; `orbff = pretrained.orb_v1()` was created on the CPU (the
README loads it with `pretrained.orb_v1(device='cuda')`, cf. issues #10/#19). Stand-in: a graph
regressor (node embedding + message MLP + energy head) and the calculator reduced to
`atoms -> batch.to(device) -> model.predict(batch)`; ASE Atoms reduced to numbers and positions.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class AtomGraphs:
    def __init__(self, atomic_numbers, positions):
        self.atomic_numbers, self.positions = atomic_numbers, positions

    def to(self, device):
        return AtomGraphs(self.atomic_numbers.to(device), self.positions.to(device))

class GraphRegressor(nn.Module):
    def __init__(self, latent=32, num_elements=119):
        super().__init__()
        self.atom_emb = nn.Linear(num_elements, latent)
        self.pos_mlp = nn.Linear(3, latent)
        self.energy_head = nn.Sequential(nn.Linear(latent, latent), nn.SiLU(), nn.Linear(latent, 1))

    def predict(self, batch):
        one_hot = nn.functional.one_hot(batch.atomic_numbers, 119).float()
        h = self.atom_emb(one_hot) + self.pos_mlp(batch.positions)
        return {"graph_pred": self.energy_head(h).sum(0)}

def orb_v1(device=None):
    model = GraphRegressor()
    if device is not None:
        model = model.to(device)
    return model

class ORBCalculator:
    def __init__(self, model, device="cpu"):
        self.model = model
        self.device = device
        self.results = {}

    def calculate(self, atoms):
        numbers, positions = atoms
        batch = AtomGraphs(torch.tensor(numbers), torch.tensor(positions, dtype=torch.float32))
        batch = batch.to(self.device)
        out = self.model.predict(batch)
        self.results["energy"] = out["graph_pred"]
        return self.results["energy"]

orbff = orb_v1()                                  # pretrained.orb_v1()
calc = ORBCalculator(orbff, device="cuda:0")
atoms = ([8, 1, 1], np.array([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]]))
'''
CELL = '''
with torch.no_grad():
    energy = calc.calculate(atoms)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["orbff"]
FIX = "namespace"
REFERENCE_FIX = '''
orbff.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
