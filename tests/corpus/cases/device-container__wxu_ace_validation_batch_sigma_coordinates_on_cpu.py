"""ACE training fails at the first validation step: the batch's sigma coordinates are CPU tensors when derived variables are computed.

Source: https://github.com/ai2cm/ace/issues/496
"Training fails on validation step": on a commit of main, training crashed with a CPU-vs-GPU error
"re: the sigma coordinates", at the first time derived variables (pressure thickness, total water
path) were computed. The validation batch carries the hybrid sigma coordinates (`ak`/`bk`) read
from the dataset on the CPU while the generated data is on the GPU. Fix: move the coordinates
along with the batch. Stand-in: a `BatchData`-like dataclass holding `sigma_coordinates`, and a
reduced `compute_derived_quantities`.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import dataclasses
import torch
from torch import nn

@dataclasses.dataclass
class SigmaCoordinates:
    ak: torch.Tensor
    bk: torch.Tensor
    def to(self, device):
        return SigmaCoordinates(self.ak.to(device), self.bk.to(device))

@dataclasses.dataclass
class BatchData:
    data: dict
    sigma_coordinates: SigmaCoordinates

def compute_derived_quantities(data, sigma_coordinates):
    ps = data["PRESsfc"]
    q = data["specific_total_water"]
    dp = sigma_coordinates.ak.diff() + sigma_coordinates.bk.diff() * ps.unsqueeze(-1)
    data = dict(data)
    data["total_water_path"] = (q * dp).sum(-1) / 9.80665
    return data

n_levels = 8
device = torch.device("cuda:0")
stepper = nn.Linear(n_levels, n_levels).to(device)
batch = BatchData(
    data={"PRESsfc": torch.full((2, 32), 1.0e5).to(device),
          "specific_total_water": torch.rand(2, 32, n_levels).to(device)},
    sigma_coordinates=SigmaCoordinates(torch.linspace(0, 100, n_levels + 1),
                                       torch.linspace(0, 1, n_levels + 1)),
)
'''
CELL = '''
with torch.no_grad():
    gen = {"PRESsfc": batch.data["PRESsfc"],
           "specific_total_water": torch.sigmoid(stepper(batch.data["specific_total_water"])) * 1e-2}
    gen = compute_derived_quantities(gen, batch.sigma_coordinates)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch.sigma_coordinates"]
FIX = "namespace"
REFERENCE_FIX = '''
batch.sigma_coordinates = batch.sigma_coordinates.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
