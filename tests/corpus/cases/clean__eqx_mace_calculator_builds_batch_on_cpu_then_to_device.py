"""Look-alike: MACE's ASE calculator keeps the z-table and atoms in NumPy, builds the batch on the CPU and moves it to the model's device.

Source: https://github.com/ACEsuit/mace/blob/main/mace/calculators/mace.py
`MACECalculator.calculate` converts the atoms with `data.config_from_atoms`/`AtomicData.from_config`
(CPU tensors, `z_table` kept as plain NumPy/Python), collates them and calls `batch.to(self.device)`
before `model(batch.to_dict(), ...)`; outputs come back with `.detach().cpu().numpy()`. CPU-side
tensors next to a cuda model are deliberate here. Stand-in: the one-hot/positions batch, a small model
moved to `device`, and that calculate path.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class AtomicNumberTable:
    def __init__(self, zs):
        self.zs = list(zs)
    def z_to_index(self, z):
        return self.zs.index(z)

class Batch(dict):
    def to(self, device):
        return Batch({k: v.to(device) for k, v in self.items()})
    def to_dict(self):
        return dict(self)

class MACE(nn.Module):
    def __init__(self, n_elements, dim=16):
        super().__init__()
        self.node_embedding = nn.Linear(n_elements, dim, bias=False)
        self.radial = nn.Linear(1, dim)
        self.readout = nn.Linear(dim, 1)
    def forward(self, data):
        d = torch.cdist(data["positions"], data["positions"]).sum(-1, keepdim=True)
        return {"energy": self.readout(self.node_embedding(data["node_attrs"]) + self.radial(d)).sum()}

class MACECalculator:
    def __init__(self, model, z_table, device="cpu"):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.z_table = z_table
    def calculate(self, numbers, positions):
        idx = torch.tensor([self.z_table.z_to_index(z) for z in numbers])
        batch = Batch(node_attrs=nn.functional.one_hot(idx, len(self.z_table.zs)).float(),
                      positions=torch.tensor(positions, dtype=torch.float32))
        batch = batch.to(self.device)
        out = self.model(batch.to_dict())
        return out["energy"]

z_table = AtomicNumberTable([1, 6, 8])
calc = MACECalculator(MACE(3), z_table, device="cuda:0")
numbers = np.array([8, 1, 1])
positions = np.array([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]])
'''
CELL = '''
with torch.no_grad():
    energy = calc.calculate(numbers, positions)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
