"""Look-alike: a PyG `RadiusGraph` pre-transform computes edges on the CPU dataset; batches are moved to the GPU in the loop.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/torch_geometric/transforms/radius_graph.py
`RadiusGraph(r)` calls `torch_geometric.nn.radius_graph(data.pos, r, data.batch, ...)` (torch-cluster) on
each CPU `Data` object at dataset construction; the training loop then does `data = data.to(device)` before
`model(data.z, data.pos, data.edge_index)`. The CPU graph building beside a cuda model is deliberate.
Stand-in: a brute-force radius graph (all pairs plus a within-cutoff mask, fixed size), a `Data` with `.to()`, and a SchNet-like model on cuda.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def radius_graph(pos, r):
    n = pos.shape[0]
    i, j = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
    within = (torch.cdist(pos, pos) < r) & (i != j)
    return torch.stack([i.flatten(), j.flatten()]), within.flatten()

class RadiusGraph:
    def __init__(self, r):
        self.r = r
    def __call__(self, data):
        data.edge_index, data.edge_mask = radius_graph(data.pos, self.r)
        return data

class Data:
    def __init__(self, **kw):
        self.__dict__.update(kw)
    def to(self, device):
        return Data(**{k: v.to(device) for k, v in self.__dict__.items()})

class SchNetLike(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.embedding = nn.Embedding(10, dim)
        self.lin = nn.Linear(dim, 1)
    def forward(self, z, pos, edge_index):
        h = self.embedding(z) + 0.0 * pos.sum(-1, keepdim=True)
        return self.lin(h).sum() + 0.0 * edge_index.sum()

pre_transform = RadiusGraph(r=5.0)
dataset = [pre_transform(Data(z=torch.tensor([6, 1, 1, 1, 1]), pos=torch.randn(5, 3))) for _ in range(3)]
device = torch.device("cuda:0")
model = SchNetLike().to(device)
'''
CELL = '''
with torch.no_grad():
    for data in dataset:
        data = data.to(device)
        out = model(data.z, data.pos, data.edge_index)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
