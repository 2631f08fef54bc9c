"""Look-alike: PyTorch Geometric Temporal's GCLSTM builds its missing hidden and cell states with `torch.zeros(...)` inside the cell and then `.to(X.device)`.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/blob/master/torch_geometric_temporal/nn/recurrent/gc_lstm.py
`GCLSTM._set_hidden_state` / `_set_cell_state` create `torch.zeros(X.shape[0], self.out_channels)`
when no `H`/`C` is passed and move them with `.to(X.device)`; the gates mix `X @ W_*` with a
Chebyshev graph convolution of `H`. The package's examples start the snapshot loop with
`h, c = None, None` and carry the returned states to the next snapshot. A zeros tensor made
in a recurrent cell without `device=` looks like the classic CPU hidden-state bug, but it is
moved to the node features' device right away. Reduced: `ChebConv` is a stand-in (K=1, i.e. its
`lins[0]` on the node states), three random graph snapshots; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch.nn import Parameter

def glorot(value):
    stdv = math.sqrt(6.0 / (value.size(-2) + value.size(-1)))
    value.data.uniform_(-stdv, stdv)

def zeros(value):
    value.data.fill_(0)

class ChebConv(torch.nn.Module):
    """Stand-in for torch_geometric.nn.ChebConv with K=1 (T_0(L) x = x)."""
    def __init__(self, in_channels, out_channels, K, normalization="sym", bias=True):
        super().__init__()
        self.lins = torch.nn.ModuleList([torch.nn.Linear(in_channels, out_channels, bias=False) for _ in range(K)])
        self.bias = Parameter(torch.zeros(out_channels)) if bias else None

    def forward(self, x, edge_index, edge_weight=None):
        out = self.lins[0](x)
        return out + self.bias if self.bias is not None else out

class GCLSTM(torch.nn.Module):
    def __init__(self, in_channels, out_channels, K, normalization="sym", bias=True):
        super(GCLSTM, self).__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.K = K
        for gate in "ifco":
            setattr(self, "conv_" + gate, ChebConv(out_channels, out_channels, K, normalization, bias))
            setattr(self, "W_" + gate, Parameter(torch.Tensor(in_channels, out_channels)))
            setattr(self, "b_" + gate, Parameter(torch.Tensor(1, out_channels)))
        for gate in "ifco":
            glorot(getattr(self, "W_" + gate))
            zeros(getattr(self, "b_" + gate))

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels).to(X.device)
        return H

    def _set_cell_state(self, X, C):
        if C is None:
            C = torch.zeros(X.shape[0], self.out_channels).to(X.device)
        return C

    def _gate(self, g, X, edge_index, edge_weight, H):
        return torch.matmul(X, getattr(self, "W_" + g)) + getattr(self, "conv_" + g)(H, edge_index, edge_weight) + getattr(self, "b_" + g)

    def forward(self, X, edge_index, edge_weight=None, H=None, C=None):
        H = self._set_hidden_state(X, H)
        C = self._set_cell_state(X, C)
        I = torch.sigmoid(self._gate("i", X, edge_index, edge_weight, H))
        F_ = torch.sigmoid(self._gate("f", X, edge_index, edge_weight, H))
        T = torch.tanh(self._gate("c", X, edge_index, edge_weight, H))
        C = F_ * C + I * T
        O = torch.sigmoid(self._gate("o", X, edge_index, edge_weight, H))
        H = O * torch.tanh(C)
        return H, C

class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = GCLSTM(node_features, 32, 1)
        self.linear = torch.nn.Linear(32, 1)

    def forward(self, x, edge_index, edge_weight, h, c):
        h_0, c_0 = self.recurrent(x, edge_index, edge_weight, h, c)
        h = F.relu(h_0)
        h = self.linear(h)
        return h, h_0, c_0

device = torch.device("meta")
model = RecurrentGCN(node_features=4).to(device)
edge_index = torch.tensor([[0, 1, 2, 3, 4], [1, 2, 3, 4, 0]]).to(device)
snapshots = [(torch.randn(5, 4).to(device), edge_index, torch.rand(5).to(device), torch.randn(5).to(device))
             for _ in range(3)]
'''
CELL = '''
with torch.no_grad():
    cost = 0
    h, c = None, None
    for time, (x, ei, ew, y) in enumerate(snapshots):
        y_hat, h, c = model(x, ei, ew, h, c)
        cost = cost + torch.mean((y_hat - y) ** 2)
    cost = cost / (time + 1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
