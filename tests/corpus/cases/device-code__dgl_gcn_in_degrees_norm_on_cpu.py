"""DGL GCN on a graph moved to CUDA: `g.in_degrees()` still returns a CPU tensor used for the normalisation.

Source: https://github.com/dmlc/dgl/issues/1594
"Expected object of device type cuda but got device type cpu for argument #1 'self' in call to
_th_mm" following the batched-graph tutorial on GPU. The reporter: "it looks like `g.in_degrees()`
doesn't return cuda tensor even though `g` is already in `cuda:0`"; maintainer: "`graph.to(device)`
only moves ndata/edata ... `in_degrees` is generated from the underlying adjacency list only when
it is needed". Stand-in: a graph object whose `.to` moves `ndata` and whose degrees are built from
its (CPU) edge lists; the tutorial's GCN layer computing `norm` from them in forward.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Graph:
    def __init__(self, src, dst, num_nodes):
        self.src, self.dst, self.num_nodes = list(src), list(dst), num_nodes
        self.ndata = {}

    def to(self, device):
        self.ndata = {k: v.to(device) for k, v in self.ndata.items()}
        return self

    def in_degrees(self):
        deg = [0] * self.num_nodes
        for d in self.dst:
            deg[d] += 1
        return torch.tensor(deg)

    def adjacency(self, device):
        a = torch.zeros(self.num_nodes, self.num_nodes)
        a[self.dst, self.src] = 1.0
        return a.to(device)

class GCNLayer(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.linear = nn.Linear(in_feats, out_feats)

    def forward(self, g, h):
        degs = g.in_degrees().float().clamp(min=1)
        norm = torch.pow(degs, -0.5).unsqueeze(1)
        h = h * norm
        h = g.adjacency(h.device) @ h
        h = h * norm
        return self.linear(h)

class Classifier(nn.Module):
    def __init__(self, in_dim, hidden_dim, n_classes):
        super().__init__()
        self.layer = GCNLayer(in_dim, hidden_dim)
        self.classify = nn.Linear(hidden_dim, n_classes)

    def forward(self, g):
        h = torch.relu(self.layer(g, g.ndata["h"]))
        return self.classify(h.mean(0, keepdim=True))

device = torch.device("cuda:0")
g = Graph(src=[0, 1, 2, 3, 4, 0], dst=[1, 2, 3, 4, 0, 2], num_nodes=5)
g.ndata["h"] = torch.randn(5, 1)
g = g.to(device)
model = Classifier(1, 16, 2).to(device)
'''
CELL = '''
with torch.no_grad():
    prediction = model(g)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "degs = g.in_degrees().float().clamp(min=1)",
    "degs = g.in_degrees().float().clamp(min=1).to(h.device)",
)
CLEAN = False
