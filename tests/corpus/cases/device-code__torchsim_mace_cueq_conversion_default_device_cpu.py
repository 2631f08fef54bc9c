"""torch-sim `MaceModel(enable_cueq=True)`: the e3nn-to-cuEquivariance conversion rebuilds the MACE model on its default device "cpu" after the wrapper moved it to cuda.

Source: https://github.com/TorchSim/torch-sim/issues/440
"enable_cueq=True causes device mismatch error": `MaceModel(enable_cueq=True)` fails with "mat2 is on
cpu, different from other tensors on cuda:0". Cause given in the report: `torch_sim/models/mace.py`
calls `run_e3nn_to_cueq(self.model)` without passing device; "the function defaults to
device='cpu', so the converted model has CPU tensors"; fix `run_e3nn_to_cueq(self.model,
device=str(self._device))`. Stand-in: a two-layer MACE-shaped model (species embedding, radial
message passing with the edge gathers/segment sums written as incidence matmuls, readout),
`run_e3nn_to_cueq` re-instantiating it from its config and state dict,
and the `MaceModel` wrapper's `__init__`/`forward` reduced to energies.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from types import SimpleNamespace

class ScaleShiftMACE(nn.Module):
    def __init__(self, num_elements=3, hidden=16, num_interactions=2, cueq=False):
        super().__init__()
        self.config = dict(num_elements=num_elements, hidden=hidden, num_interactions=num_interactions)
        self.node_embedding = nn.Linear(num_elements, hidden, bias=False)
        self.radial = nn.ModuleList(nn.Sequential(nn.Linear(8, hidden), nn.SiLU()) for _ in range(num_interactions))
        self.products = nn.ModuleList(nn.Linear(hidden, hidden) for _ in range(num_interactions))
        self.readout = nn.Linear(hidden, 1)

    def forward(self, data):
        h = self.node_embedding(data["node_attrs"])
        senders, receivers = data["senders"], data["receivers"]          # one-hot incidence, (E, n)
        vec = (receivers - senders) @ data["positions"]
        r = vec.norm(dim=-1, keepdim=True)
        basis = torch.sin(r * torch.arange(1, 9, device=r.device, dtype=r.dtype)) / r
        for radial, product in zip(self.radial, self.products):
            msg = radial(basis) * (senders @ h)
            agg = receivers.T @ msg
            h = h + product(agg)
        return {"energy": self.readout(h).sum(0)}

def run_e3nn_to_cueq(source_model, device="cpu", return_model=True):
    config = source_model.config
    target_model = source_model.__class__(**config, cueq=True)
    target_model.load_state_dict(source_model.state_dict())
    return target_model.to(device)

class MaceModel(nn.Module):
    def __init__(self, model, *, device=None, dtype=torch.float32, compute_forces=False, enable_cueq=False):
        super().__init__()
        self._device = device or torch.device("cpu")
        self._dtype = dtype
        self.model = model.to(self._device)
        self.model = self.model.to(dtype=self._dtype)
        if enable_cueq:
            self.model = run_e3nn_to_cueq(self.model)
        self.model.eval()

    def forward(self, state):
        node_attrs = (state.atomic_indices[:, None] == torch.arange(3, device=self._device)).to(dtype=self._dtype)
        E = state.edge_index.shape[1]
        senders = (state.edge_index[0][:, None] == torch.arange(state.n_atoms, device=self._device)).to(self._dtype)
        receivers = (state.edge_index[1][:, None] == torch.arange(state.n_atoms, device=self._device)).to(self._dtype)
        out = self.model({"positions": state.positions, "node_attrs": node_attrs, "senders": senders, "receivers": receivers})
        return {"energy": out["energy"].detach()}

device = torch.device("cuda:0")
raw_model = ScaleShiftMACE()                      # mace_mp(model="small", return_raw_model=True)
model = MaceModel(model=raw_model, device=device, dtype=torch.float32, enable_cueq=True)
n = 6
state = SimpleNamespace(n_atoms=n, positions=(torch.rand(n, 3) * 3).to(device),
                        atomic_indices=torch.tensor([0, 1, 2, 0, 1, 2]).to(device),
                        edge_index=torch.tensor([[0, 1, 2, 3, 4, 5, 1, 2], [1, 2, 3, 4, 5, 0, 0, 1]]).to(device))
'''
CELL = '''
with torch.no_grad():
    results = model(state)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "different from other tensors on cuda:0")
CULPRITS = ["model.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.model = run_e3nn_to_cueq(self.model)", "self.model = run_e3nn_to_cueq(self.model, device=str(self._device))")
CLEAN = False
