"""OGB ogbn-proteins example: GCN normalisation of the SparseTensor is computed on the CPU before `data.to(device)`; multi-label targets cast to float for BCE.

Source: https://github.com/snap-stanford/ogb/blob/master/examples/nodeproppred/proteins/gnn.py
Node features are the mean of the 8-d edge features (`data.x = data.adj_t.mean(dim=1)`), the edge
values are dropped, and the symmetric normalisation `deg_inv_sqrt.view(-1, 1) * adj_t *
deg_inv_sqrt.view(1, -1)` (with `deg = adj_t.sum(dim=1).to(torch.float)`) is computed while
everything is still on the CPU; only afterwards `data = data.to(device)` moves `x`, `y` and the
normalised `adj_t`, and `train_idx` is moved separately. In `train()` the int64 0/1 labels are
cast with `.to(torch.float)` for `BCEWithLogitsLoss`. Look-alike: CPU-side sparse preprocessing,
integer labels next to float logits; it runs. Stand-ins: `torch_sparse.SparseTensor` (row/col/value,
`mean`/`sum(dim=1)`, `set_value_`, `set_diag`, scaling by row/column vectors, `.to`), PyG
`GCNConv(normalize=False)` as `matmul(adj_t, x @ W)`, the dataset's `Data`. SIM meta: "meta" plays
the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

class SparseTensor:
    """Stand-in for torch_sparse.SparseTensor (COO row/col/value)."""
    def __init__(self, row, col, value, sparse_sizes):
        self.row, self.col, self.value = row, col, value
        self.sparse_sizes = tuple(sparse_sizes)

    def _row_reduce(self, src):
        out = torch.zeros((self.sparse_sizes[0],) + tuple(src.shape[1:]),
                          dtype=src.dtype, device=src.device)
        return out.index_add_(0, self.row, src)

    def sum(self, dim=1):
        value = self.value if self.value is not None else torch.ones_like(self.row)
        return self._row_reduce(value)

    def mean(self, dim=1):
        deg = self._row_reduce(torch.ones_like(self.row, dtype=self.value.dtype))
        return self._row_reduce(self.value) / deg.clamp(min=1).view(-1, 1)

    def set_value_(self, value):
        self.value = value
        return self

    def set_diag(self):
        loop = torch.arange(self.sparse_sizes[0], device=self.row.device)
        return SparseTensor(torch.cat([self.row, loop]), torch.cat([self.col, loop]),
                            None, self.sparse_sizes)

    def _scale(self, other):
        value = self.value if self.value is not None else torch.ones(
            self.row.numel(), dtype=other.dtype, device=other.device)
        if other.size(0) == 1:
            factor = other.view(-1)[self.col]
        else:
            factor = other.view(-1)[self.row]
        return SparseTensor(self.row, self.col, value * factor, self.sparse_sizes)

    __mul__ = _scale
    __rmul__ = _scale

    def to(self, device):
        value = None if self.value is None else self.value.to(device)
        return SparseTensor(self.row.to(device), self.col.to(device), value, self.sparse_sizes)

def matmul(src, other):
    msg = other.index_select(0, src.col)
    if src.value is not None:
        msg = msg * src.value.view(-1, 1)
    out = torch.zeros(src.sparse_sizes[0], other.size(1), dtype=other.dtype, device=other.device)
    return out.index_add_(0, src.row, msg)

class GCNConv(torch.nn.Module):
    """Stand-in for torch_geometric.nn.GCNConv(normalize=False) on a SparseTensor."""
    def __init__(self, in_channels, out_channels, normalize=False):
        super().__init__()
        self.lin = torch.nn.Linear(in_channels, out_channels, bias=False)
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))

    def reset_parameters(self):
        self.lin.reset_parameters()
        torch.nn.init.zeros_(self.bias)

    def forward(self, x, adj_t):
        return matmul(adj_t, self.lin(x)) + self.bias

class GCN(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels, num_layers,
                 dropout):
        super(GCN, self).__init__()

        self.convs = torch.nn.ModuleList()
        self.convs.append(
            GCNConv(in_channels, hidden_channels, normalize=False))
        for _ in range(num_layers - 2):
            self.convs.append(
                GCNConv(hidden_channels, hidden_channels, normalize=False))
        self.convs.append(
            GCNConv(hidden_channels, out_channels, normalize=False))

        self.dropout = dropout

    def reset_parameters(self):
        for conv in self.convs:
            conv.reset_parameters()

    def forward(self, x, adj_t):
        for conv in self.convs[:-1]:
            x = conv(x, adj_t)
            x = F.relu(x)
            x = F.dropout(x, p=self.dropout, training=self.training)
        x = self.convs[-1](x, adj_t)
        return x

class Data:
    def __init__(self, y, adj_t, x=None):
        self.y, self.adj_t, self.x = y, adj_t, x

    @property
    def num_features(self):
        return self.x.size(-1)

    def to(self, device):
        return Data(self.y.to(device), self.adj_t.to(device), self.x.to(device))

def train(model, data, train_idx, optimizer):
    model.train()
    criterion = torch.nn.BCEWithLogitsLoss()

    optimizer.zero_grad()
    out = model(data.x, data.adj_t)[train_idx]
    loss = criterion(out, data.y[train_idx].to(torch.float))
    loss.backward()
    optimizer.step()

    return loss

device = torch.device("meta")                          # f'cuda:{args.device}'
num_nodes = 200
edge_index = torch.randint(0, num_nodes, (2, 1000))
data = Data(torch.randint(0, 2, (num_nodes, 112)),
            SparseTensor(edge_index[1], edge_index[0], torch.rand(1000, 8), (num_nodes, num_nodes)))

# Move edge features to node features.
data.x = data.adj_t.mean(dim=1)
data.adj_t.set_value_(None)

split_idx = {'train': torch.arange(0, 120), 'valid': torch.arange(120, 160),
             'test': torch.arange(160, 200)}
train_idx = split_idx['train'].to(device)

model = GCN(data.num_features, 64, 112, 3, 0.0).to(device)

# Pre-compute GCN normalization.
adj_t = data.adj_t.set_diag()
deg = adj_t.sum(dim=1).to(torch.float)
deg_inv_sqrt = deg.pow(-0.5)
deg_inv_sqrt[deg_inv_sqrt == float('inf')] = 0
adj_t = deg_inv_sqrt.view(-1, 1) * adj_t * deg_inv_sqrt.view(1, -1)
data.adj_t = adj_t

data = data.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
'''
CELL = '''
loss = train(model, data, train_idx, optimizer)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
