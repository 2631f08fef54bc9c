"""Look-alike: PyTorch Geometric Temporal's TGCN makes its first hidden state with `torch.zeros(...)` inside forward, then `.to(X.device)`; the snapshots come from numpy via `torch.FloatTensor`.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/blob/master/torch_geometric_temporal/nn/recurrent/temporalgcn.py
`TGCN._set_hidden_state(X, H)` returns `torch.zeros(X.shape[0], self.out_channels).to(X.device)`
when no state is passed, so the `hidden_state = None` loop of examples/recurrent/tgcn_example.py
works on the GPU once the model and each `snapshot.to(device)` are moved.
StaticGraphTemporalSignal builds every snapshot on the CPU (`torch.FloatTensor(features)`,
`torch.LongTensor(edge_index)`). Stand-ins: the signal and Data classes and a GCNConv with
symmetric normalisation written with index_select/index_add (no self-loops).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F


class Data:
    def __init__(self, x, edge_index, edge_attr, y):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y

    def to(self, device):
        return Data(self.x.to(device), self.edge_index.to(device), self.edge_attr.to(device), self.y.to(device))


class StaticGraphTemporalSignal(object):
    def __init__(self, edge_index, edge_weight, features, targets):
        self.edge_index, self.edge_weight = edge_index, edge_weight
        self.features, self.targets = features, targets

    def __len__(self):
        return len(self.features)

    def __getitem__(self, time_index):
        return Data(x=torch.FloatTensor(self.features[time_index]),
                    edge_index=torch.LongTensor(self.edge_index),
                    edge_attr=torch.FloatTensor(self.edge_weight),
                    y=torch.FloatTensor(self.targets[time_index]))

    def __iter__(self):
        return (self[i] for i in range(len(self)))


class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, improved=False, cached=False, add_self_loops=True):
        super().__init__()
        self.lin = torch.nn.Linear(in_channels, out_channels)

    def forward(self, x, edge_index, edge_weight=None):
        row, col = edge_index
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1), device=edge_index.device)
        deg = torch.zeros(x.size(0), device=x.device).index_add(0, col, edge_weight)
        deg_inv_sqrt = deg.pow(-0.5).masked_fill(deg == 0, 0)
        norm = deg_inv_sqrt.index_select(0, row) * edge_weight * deg_inv_sqrt.index_select(0, col)
        h = self.lin(x)
        return torch.zeros_like(h).index_add(0, col, h.index_select(0, row) * norm.view(-1, 1))


class TGCN(torch.nn.Module):
    def __init__(self, in_channels, out_channels, improved=False, cached=False, add_self_loops=True):
        super(TGCN, self).__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.conv_z = GCNConv(in_channels, out_channels)
        self.linear_z = torch.nn.Linear(2 * out_channels, out_channels)
        self.conv_r = GCNConv(in_channels, out_channels)
        self.linear_r = torch.nn.Linear(2 * out_channels, out_channels)
        self.conv_h = GCNConv(in_channels, out_channels)
        self.linear_h = torch.nn.Linear(2 * out_channels, out_channels)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels).to(X.device)
        return H

    def forward(self, X, edge_index, edge_weight=None, H=None):
        H = self._set_hidden_state(X, H)
        Z = torch.sigmoid(self.linear_z(torch.cat([self.conv_z(X, edge_index, edge_weight), H], axis=1)))
        R = torch.sigmoid(self.linear_r(torch.cat([self.conv_r(X, edge_index, edge_weight), H], axis=1)))
        H_tilde = torch.tanh(self.linear_h(torch.cat([self.conv_h(X, edge_index, edge_weight), H * R], axis=1)))
        return Z * H + (1 - Z) * H_tilde


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = TGCN(node_features, 32)
        self.linear = torch.nn.Linear(32, 1)

    def forward(self, x, edge_index, edge_weight, prev_hidden_state):
        h = self.recurrent(x, edge_index, edge_weight, prev_hidden_state)
        y = F.relu(h)
        y = self.linear(y)
        return y, h


rng = np.random.default_rng(0)
stacked_target = rng.random((30, 20))                # weekly counts per county (float64 numpy)
lags = 4
features = [stacked_target[i:i + lags, :].T for i in range(stacked_target.shape[0] - lags)]
targets = [stacked_target[i + lags, :].T for i in range(stacked_target.shape[0] - lags)]
edges = rng.integers(0, 20, (2, 60))
test_dataset = StaticGraphTemporalSignal(edges, np.ones(edges.shape[1]), features, targets)

device = torch.device('cuda:0')
model = RecurrentGCN(node_features=4).to(device)
'''
CELL = '''
model.eval()
with torch.no_grad():
    cost = 0
    hidden_state = None
    for time, snapshot in enumerate(test_dataset):
        snapshot = snapshot.to(device)
        y_hat, hidden_state = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr, hidden_state)
        cost = cost + torch.mean((y_hat - snapshot.y) ** 2)
    cost = cost / (time + 1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
