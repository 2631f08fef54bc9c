"""PyG HeteroData batch: moving `batch.x_dict[key]` to the GPU writes into a temporary dict, so the node features stay on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/issues/5040
After sampling a HeteroData graph with NeighborLoader, the user wrote
`for key in batch.x_dict.keys(): batch.x_dict[key] = batch.x_dict[key].to(device)` and found `x` "still
in cpu". `x_dict` is a property that builds a new dict from the node stores on every access; the
assignment goes into that throw-away dict. The user worked around it by collecting
`batch[node_type].x.to(device)` into their own dicts (`batch.to(device)` moves the stores).
Stand-in: a minimal HeteroData with node/edge stores and `x_dict`/`edge_index_dict` properties, and
a two-type heterogeneous SAGE-style layer on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

class HeteroData:
    def __init__(self):
        self._stores = {}

    def __getitem__(self, key):
        if key not in self._stores:
            self._stores[key] = SimpleNamespace()
        return self._stores[key]

    @property
    def node_types(self):
        return [k for k in self._stores if isinstance(k, str)]

    @property
    def edge_types(self):
        return [k for k in self._stores if isinstance(k, tuple)]

    @property
    def x_dict(self):
        return {k: self._stores[k].x for k in self.node_types}

    @property
    def edge_index_dict(self):
        return {k: self._stores[k].edge_index for k in self.edge_types}

    def to(self, device):
        for store in self._stores.values():
            for name, value in vars(store).items():
                if torch.is_tensor(value):
                    setattr(store, name, value.to(device))
        return self

class HeteroSAGE(nn.Module):
    def __init__(self, in_channels, out_channels, edge_types):
        super().__init__()
        self.edge_types = edge_types
        self.lin_src = nn.ModuleDict({"__".join(e): nn.Linear(in_channels, out_channels) for e in edge_types})
        self.lin_dst = nn.ModuleDict({"__".join(e): nn.Linear(in_channels, out_channels) for e in edge_types})

    def forward(self, x_dict, edge_index_dict):
        out = {}
        for (src, rel, dst), edge_index in edge_index_dict.items():
            key = "__".join((src, rel, dst))
            s, d = edge_index.unbind(0)
            msg = self.lin_src[key](x_dict[src]).index_select(0, s)
            agg = torch.zeros(x_dict[dst].size(0), msg.size(1), device=msg.device).index_add_(0, d, msg)
            out[dst] = out.get(dst, 0) + agg + self.lin_dst[key](x_dict[dst])
        return out

# one sampled mini-batch, as NeighborLoader yields it (on the CPU)
batch = HeteroData()
batch["paper"].x = torch.randn(40, 16)
batch["author"].x = torch.randn(25, 16)
batch["author", "writes", "paper"].edge_index = torch.stack([torch.randint(0, 25, (80,)), torch.randint(0, 40, (80,))])
batch["paper", "cites", "paper"].edge_index = torch.randint(0, 40, (2, 120))

device = torch.device("cuda:0")
model = HeteroSAGE(16, 32, batch.edge_types).to(device)
for key in batch.edge_index_dict.keys():
    batch[key].edge_index = batch[key].edge_index.to(device)
for key in batch.x_dict.keys():
    batch.x_dict[key] = batch.x_dict[key].to(device)
'''
CELL = '''
out = model(batch.x_dict, batch.edge_index_dict)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch"]
FIX = "namespace"
REFERENCE_FIX = '''
batch = batch.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
