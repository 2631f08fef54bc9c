"""DGL CSVDataset: node features parsed from a CSV become float64 tensors and hit SAGEConv's float32 Linear.

Source: https://github.com/dmlc/dgl/pull/3751
Loading a graph with `dgl.data.CSVDataset`, the node feature column parsed with numpy/pandas is
float64 and was turned into a tensor as is; training a GraphSAGE model then failed inside
`SAGEConv.forward` at `self.fc_neigh(feat_src)` (float64 input, float32 weight). The fix (PR #3751)
adds a `_tensor` helper in `csv_dataset_base.py` that converts float64 data to float32 when the
tensors are created. Stand-ins: a CSVDataset that parses the node table with numpy, a tiny graph
object with `ndata`, and a mean-aggregating SAGEConv; CPU (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import io
import numpy as np
import torch
from torch import nn

NODES_CSV = "node_id,feat\\n" + "\\n".join(
    f"{i},\\"{', '.join(str(round(v, 4)) for v in np.random.rand(5))}\\"" for i in range(6))
EDGES = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]

class DGLGraph:
    def __init__(self, src, dst, num_nodes):
        self.src, self.dst, self.num_nodes = src, dst, num_nodes
        self.ndata = {}

def _tensor(data, dtype=None):
    return torch.tensor(data, dtype=dtype)

class CSVDataset:
    def __init__(self, nodes_csv, edges):
        rows = [line.split(",", 1) for line in io.StringIO(nodes_csv).read().splitlines()[1:]]
        feat = np.array([[float(v) for v in r[1].strip('"').split(",")] for r in rows])
        src = _tensor([e[0] for e in edges])
        dst = _tensor([e[1] for e in edges])
        self.graph = DGLGraph(src, dst, len(rows))
        self.graph.ndata["feat"] = _tensor(feat)

    def __getitem__(self, i):
        return self.graph

class SAGEConv(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.fc_self = nn.Linear(in_feats, out_feats, bias=False)
        self.fc_neigh = nn.Linear(in_feats, out_feats)

    def forward(self, graph, feat):
        lin_before_mp = True
        feat_src = feat
        h_neigh = self.fc_neigh(feat_src) if lin_before_mp else feat_src
        agg = torch.zeros_like(h_neigh).index_add_(0, graph.dst, h_neigh[graph.src])
        return self.fc_self(feat) + agg

class GraphSAGE(nn.Module):
    def __init__(self, in_feats, h_feats):
        super().__init__()
        self.conv1 = SAGEConv(in_feats, h_feats)
        self.conv2 = SAGEConv(h_feats, 2)

    def forward(self, g, in_feat):
        return self.conv2(g, torch.relu(self.conv1(g, in_feat)))

model = GraphSAGE(5, 16)
'''
CELL = '''
dataset = CSVDataset(NODES_CSV, EDGES)
g = dataset[0]
logits = model(g, g.ndata["feat"])
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "Expected object of scalar type")
CULPRITS = ["g.ndata['feat']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('self.graph.ndata["feat"] = _tensor(feat)',
                  'self.graph.ndata["feat"] = _tensor(feat, dtype=torch.float32)')
CLEAN = False
