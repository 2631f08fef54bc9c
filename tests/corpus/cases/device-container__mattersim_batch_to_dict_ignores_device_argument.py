"""MatterSim: `batch_to_dict(graph_batch, device="cuda")` accepts a device but returns the graph tensors where they were.

Source: https://github.com/microsoft/mattersim/issues/113
"Batch_to_dict function does not move Tensors to the correct device": the helper takes a `device`
argument but never uses it, so a user wrapping the potential calls it with `device="cuda"` and
feeds the resulting input dict (atom positions, cell, edge index, ...) from a CPU graph batch to the
model on the GPU. Fixed in PR #147 by `.to(device)` on every tensor. Stand-ins: a PyG-like graph
batch and an M3GNet-shaped energy model (embedding + one message-passing step).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class GraphBatch:
    """torch_geometric.data.Batch stand-in for a batch of two crystals."""
    def __init__(self):
        self.atom_attr = torch.tensor([[8], [1], [1], [14], [8], [8]])
        self.pos = torch.randn(6, 3)
        self.cell = torch.eye(3).repeat(2, 1, 1) * 5.0
        self.edge_index = torch.tensor([[0, 1, 0, 2, 3, 4, 3, 5], [1, 0, 2, 0, 4, 3, 5, 3]])
        self.pbc_offsets = torch.zeros(8, 3)
        self.batch = torch.tensor([0, 0, 0, 1, 1, 1])
        self.num_atoms = torch.tensor([3, 3])
        self.num_graphs = 2

def batch_to_dict(graph_batch, model_type="m3gnet", device="cuda"):
    """mattersim.forcefield.potential.batch_to_dict before PR #147: `device` is ignored."""
    atom_pos = graph_batch.pos
    cell = graph_batch.cell
    pbc_offsets = graph_batch.pbc_offsets
    atom_attr = graph_batch.atom_attr
    edge_index = graph_batch.edge_index
    num_atoms = graph_batch.num_atoms
    batch = graph_batch.batch
    input = {
        "num_atoms": num_atoms, "num_graphs": graph_batch.num_graphs, "atom_pos": atom_pos,
        "cell": cell, "pbc_offsets": pbc_offsets, "edge_index": edge_index,
        "atom_attr": atom_attr, "batch": batch,
    }
    return input

class M3Gnet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.atom_embedding = nn.Embedding(100, dim)
        self.edge_encoder = nn.Linear(1, dim)
        self.readout = nn.Linear(dim, 1)

    def forward(self, input):
        h = self.atom_embedding(input["atom_attr"].squeeze(-1))
        src, dst = input["edge_index"].unbind(0)
        vec = input["atom_pos"].index_select(0, dst) - input["atom_pos"].index_select(0, src)
        d = (vec + input["pbc_offsets"]).norm(dim=-1, keepdim=True)
        msg = self.edge_encoder(d) * h.index_select(0, src)
        h = h.index_add(0, dst, msg)
        atom_energy = self.readout(h).squeeze(-1)
        return torch.zeros(input["num_graphs"], device=h.device).index_add(0, input["batch"], atom_energy)

device = torch.device("cuda:0")
potential = M3Gnet().to(device)
graph_batch = GraphBatch()
input = batch_to_dict(graph_batch, device=device)
'''
CELL = '''
energies = potential(input)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input"]
FIX = "namespace"
REFERENCE_FIX = '''
input = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in input.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
