"""DGL GCN tutorial on a custom graph: `g.ndata['feat']` is float64, the GraphConv weights float32.

Source: https://github.com/dmlc/dgl/issues/3052
The user built a graph whose `ndata_schemes` show `'feat': Scheme(shape=(2,), dtype=torch.float64)`
and ran the blitz GCN: `h = self.conv1(g, in_feat)` failed in `graphconv.py` at `th.matmul(rst,
weight)` with "Expected object of scalar type Double but got scalar type Float". The node features
came from a float64 NumPy array. Stand-in: DGLGraph reduced to an adjacency and its `ndata` dict,
GraphConv to normalised adjacency times `feat @ weight`. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class DGLGraph:
    """Stand-in: a graph with a dense normalised adjacency and node-data dict."""
    def __init__(self, src, dst, num_nodes):
        adj = torch.zeros(num_nodes, num_nodes)
        adj[dst, src] = 1.0
        adj = adj + torch.eye(num_nodes)
        deg = adj.sum(1)
        self.norm_adj = adj / deg.unsqueeze(1)
        self.ndata = {}

class GraphConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_feats, out_feats))
        self.bias = nn.Parameter(torch.zeros(out_feats))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, graph, feat):
        rst = torch.matmul(feat, self.weight)
        return graph.norm_adj @ rst + self.bias

class GCN(nn.Module):
    def __init__(self, in_feats, h_feats, num_classes):
        super().__init__()
        self.conv1 = GraphConv(in_feats, h_feats)
        self.conv2 = GraphConv(h_feats, num_classes)

    def forward(self, g, in_feat):
        h = F.relu(self.conv1(g, in_feat))
        return self.conv2(g, h)

rng = np.random.default_rng(0)
src, dst = rng.integers(0, 100, 400), rng.integers(0, 100, 400)
g = DGLGraph(torch.from_numpy(src), torch.from_numpy(dst), 100)
g.ndata["feat"] = torch.from_numpy(rng.normal(size=(100, 2)))          # float64
g.ndata["label"] = torch.from_numpy(rng.integers(0, 2, 100))
g.ndata["train_mask"] = torch.from_numpy(rng.random(100) < 0.6)
model = GCN(g.ndata["feat"].shape[1], 16, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
'''
CELL = '''
features = g.ndata["feat"]
labels = g.ndata["label"]
train_mask = g.ndata["train_mask"]
logits = model(g, features)
loss = F.cross_entropy(logits[train_mask], labels[train_mask])
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "mat1 and mat2 must have the same dtype",
                "expected scalar type Double but found Float")
CULPRITS = ["g.ndata['feat']"]
FIX = "namespace"
REFERENCE_FIX = '''
g.ndata["feat"] = g.ndata["feat"].float()
'''
REFERENCE_EDIT = None
CLEAN = False
