"""TorchSim on the GPU: `get_centers_of_mass` accumulates into a `torch.zeros` made without a device.

Source: https://github.com/TorchSim/torch-sim/issues/580
"Some `torch.zeros()` tensors are not placed on the correct device when adding a `FixCom` constraint
or when calling `get_centers_of_mass()` leading to a `RuntimeError: Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu!` when running on GPU." The user's
reproduction builds an Ar fcc state with `ts.initialize_state(atoms, device="cuda",
dtype=torch.float64)` and calls `get_centers_of_mass(state.positions, state.masses,
state.system_idx, state.n_systems)`. The zeros have to be made on the positions' device.
On a CPU build the fake index_add_ words it "expected to be in the same device".
Stand-in: get_centers_of_mass with its index_add_ accumulation; a SimState-like namespace of 32
Ar atoms on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch

def get_centers_of_mass(positions, masses, system_idx, n_systems):
    coms = torch.zeros((n_systems, 3), dtype=positions.dtype)
    coms.index_add_(0, system_idx, masses.unsqueeze(-1) * positions)
    system_masses = torch.zeros((n_systems,), dtype=positions.dtype)
    system_masses.index_add_(0, system_idx, masses)
    return coms / system_masses.unsqueeze(-1)

device = "cuda:0"
dtype = torch.float64
n_atoms = 32
state = SimpleNamespace(
    positions=torch.rand(n_atoms, 3, dtype=dtype, device=device) * 10.52,
    masses=torch.full((n_atoms,), 39.948, dtype=dtype, device=device),
    system_idx=torch.zeros(n_atoms, dtype=torch.long, device=device),
    n_systems=1,
)
'''
CELL = '''
initial_com = get_centers_of_mass(
    state.positions,
    state.masses,
    state.system_idx,
    state.n_systems,
)
print(initial_com.shape)
'''
EXPECT_ERROR = ("expected to be in the same device", "Expected all tensors to be on the same device")
CULPRITS = ["coms"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    coms = torch.zeros((n_systems, 3), dtype=positions.dtype)
    coms.index_add_(0, system_idx, masses.unsqueeze(-1) * positions)
    system_masses = torch.zeros((n_systems,), dtype=positions.dtype)""",
"""    coms = torch.zeros((n_systems, 3), dtype=positions.dtype, device=positions.device)
    coms.index_add_(0, system_idx, masses.unsqueeze(-1) * positions)
    system_masses = torch.zeros((n_systems,), dtype=positions.dtype, device=positions.device)""")
CLEAN = False
