"""NequIP ASE calculator from `from_deployed_model(..., device='cuda')`: the model goes to cuda, the calculator keeps `device='cpu'`.

Source: https://github.com/mir-group/nequip/issues/209
"Error when trying to use CUDA device with ASE calculator": `calc = nequip.from_deployed_model('model.pth',
device='cuda'); at.calc = calc; at.get_forces()` fails while `device='cpu'` works. In nequip 0.5.4
`from_deployed_model` used `device` only to load the TorchScript model (`map_location`) and did not pass it
on to the `NequIPCalculator` it returns, whose own `device` default is `"cpu"`, so `calculate` sends the
`AtomicData` to the CPU. Stand-in: `load_deployed_model`, the calculator and a small energy model; ASE
Atoms reduced to numbers and positions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class DeployedModel(nn.Module):
    def __init__(self, num_types=4, dim=16):
        super().__init__()
        self.type_embed = nn.Embedding(num_types, dim)
        self.edge_mlp = nn.Linear(1, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, data):
        d = torch.cdist(data["pos"], data["pos"]).sum(-1, keepdim=True)
        return {"total_energy": self.out(self.type_embed(data["atom_types"]) + self.edge_mlp(d)).sum()}

def load_deployed_model(model_path, device="cpu"):
    model = DeployedModel()                         # torch.jit.load(model_path, map_location=device)
    return model.to(device), {"r_max": 4.0}

class NequIPCalculator:
    def __init__(self, model, r_max, device="cpu", species_to_type_name=None):
        self.model, self.r_max, self.device = model, r_max, device

    @classmethod
    def from_deployed_model(cls, model_path, device="cpu", **kwargs):
        model, metadata = load_deployed_model(model_path, device=device)
        r_max = float(metadata["r_max"])
        return cls(model=model, r_max=r_max, **kwargs)

    def calculate(self, atoms):
        numbers, positions = atoms
        data = {"atom_types": torch.tensor(numbers), "pos": torch.tensor(positions, dtype=torch.float32)}
        data = {k: v.to(self.device) for k, v in data.items()}
        out = self.model(data)
        return out["total_energy"]

calc = NequIPCalculator.from_deployed_model("model.pth", device="cuda:0")
at = ([0, 1, 1], np.array([[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]]))
'''
CELL = '''
with torch.no_grad():
    energy = calc.calculate(at)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["data"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return cls(model=model, r_max=r_max, **kwargs)", "return cls(model=model, r_max=r_max, device=device, **kwargs)")
CLEAN = False
