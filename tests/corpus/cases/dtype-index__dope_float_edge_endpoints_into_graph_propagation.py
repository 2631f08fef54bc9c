"""DOPE: the course graph's edge endpoints are loaded as floats, and message passing gathers node states with them.

Source: https://github.com/hamidkarimi/dope/issues/2
`python train.py` failed in `model(all_node_features, train_click_data, train_edge_src,
train_edge_dst, truncate_sequence_lstm=39)`, deep inside DGL's `update_all` called from the GCN
layer's `propagate`, with "index_select(): Expected dtype int64 for index": the edge source and
destination lists came out of the data files as floating-point tensors, and a graph built from
them gathers node features with float indices. Stand-in: a minimal DGL-like graph whose
`update_all` copies source features along the edges (`index_select`) and sums them at the
destinations (`index_add`), inside the repo's GCN + LSTM model.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class Graph:
    # stand-in for a DGLGraph built from (src, dst)
    def __init__(self, src, dst, num_nodes):
        self.src, self.dst, self.num_nodes = src, dst, num_nodes
        self.ndata = {}

    def update_all(self, msg_field, out_field):
        h = self.ndata[msg_field]
        msg = h.index_select(0, self.src)                       # copy_src
        self.ndata[out_field] = torch.zeros_like(h).index_add_(0, self.dst, msg)   # sum

class GCNLayer(nn.Module):
    def __init__(self, in_feats, out_feats):
        super().__init__()
        self.linear = nn.Linear(in_feats, out_feats)
        self.graph = None

    def propagate(self, h):
        self.graph.ndata["h"] = h
        self.graph.update_all("h", "h_sum")
        return self.graph.ndata["h_sum"]

    def forward(self, h):
        return torch.relu(self.linear(self.propagate(h)))

class DOPE(nn.Module):
    def __init__(self, in_feats=16, hidden=32, n_out=2):
        super().__init__()
        self.layers = nn.ModuleList([GCNLayer(in_feats, hidden), GCNLayer(hidden, hidden)])
        self.lstm = nn.LSTM(hidden + 1, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_out)

    def forward(self, node_features, click_data, edge_src, edge_dst, truncate_sequence_lstm=39):
        g = Graph(edge_src, edge_dst, node_features.shape[0])
        h = node_features
        for layer in self.layers:
            layer.graph = g
            h = layer(h)
        clicks = click_data[:, :truncate_sequence_lstm]
        seq = torch.cat([h.unsqueeze(1).expand(-1, clicks.shape[1], -1), clicks.unsqueeze(-1)], dim=-1)
        out, _ = self.lstm(seq)
        return self.out(out[:, -1])

n_nodes = 50
all_node_features = torch.randn(n_nodes, 16)
train_click_data = torch.rand(n_nodes, 60)
edges = np.loadtxt(["%d,%d" % (i, (i * 7 + 3) % n_nodes) for i in range(n_nodes)], delimiter=",")
train_edge_src = torch.from_numpy(edges[:, 0]).float()
train_edge_dst = torch.from_numpy(edges[:, 1]).float()
model = DOPE()
'''
CELL = '''
output = model(all_node_features, train_click_data, train_edge_src, train_edge_dst, truncate_sequence_lstm=39)
'''
EXPECT_ERROR = ("index_select(): Expected dtype int64 for index",
                "index_select(): Expected dtype int32 or int64 for index")
CULPRITS = ["train_edge_src", "train_edge_dst"]
FIX = "namespace"
REFERENCE_FIX = '''
train_edge_src = train_edge_src.long()
train_edge_dst = train_edge_dst.long()
'''
REFERENCE_EDIT = None
CLEAN = False
