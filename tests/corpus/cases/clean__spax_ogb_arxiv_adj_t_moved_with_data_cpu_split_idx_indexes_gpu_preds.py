"""OGB ogbn-arxiv example: the SparseTensor `adj_t` travels with `data.to(device)`, and CPU `split_idx` tensors index GPU predictions.

Source: https://github.com/snap-stanford/ogb/blob/master/examples/nodeproppred/arxiv/gnn.py
The graph is loaded with `T.ToSparseTensor()`, symmetrised on the CPU (`data.adj_t.to_symmetric()`)
and only then moved as part of `data = data.to(device)`, so `adj_t` sits next to `data.x` on the
GPU. Only `train_idx` is moved; `test()` indexes the GPU `data.y` / `y_pred` with the CPU
`split_idx['train'|'valid'|'test']` tensors, which advanced indexing allows (a CPU index into a CUDA
tensor). Look-alike: a torch_sparse matmul, a CPU index next to CUDA tensors; it runs.
Stand-ins: `torch_sparse.SparseTensor` (storage, `to_symmetric`, `.to`, mean `matmul`), PyG
`SAGEConv`, the dataset's `Data`, and the ogb `Evaluator` (accuracy kept in torch; the real one
converts to numpy). SIM meta: "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

class SparseTensor:
    """Stand-in for torch_sparse.SparseTensor (COO storage, no values)."""
    def __init__(self, row, col, sparse_sizes):
        self.row, self.col, self.sparse_sizes = row, col, tuple(sparse_sizes)

    def to_symmetric(self):
        row = torch.cat([self.row, self.col])
        col = torch.cat([self.col, self.row])
        return SparseTensor(row, col, self.sparse_sizes)

    def to(self, device):
        return SparseTensor(self.row.to(device), self.col.to(device), self.sparse_sizes)

def matmul(src, other, reduce="sum"):
    """Stand-in for torch_sparse.matmul (sum / mean aggregation)."""
    out = torch.zeros(src.sparse_sizes[0], other.size(1), dtype=other.dtype, device=other.device)
    out = out.index_add_(0, src.row, other.index_select(0, src.col))
    if reduce == "mean":
        deg = torch.zeros(src.sparse_sizes[0], dtype=other.dtype, device=other.device)
        deg = deg.index_add_(0, src.row, torch.ones_like(src.row, dtype=other.dtype))
        out = out / deg.clamp(min=1).view(-1, 1)
    return out

class SAGEConv(torch.nn.Module):
    """Stand-in for torch_geometric.nn.SAGEConv on a SparseTensor adj_t."""
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_l = torch.nn.Linear(in_channels, out_channels)
        self.lin_r = torch.nn.Linear(in_channels, out_channels, bias=False)

    def reset_parameters(self):
        self.lin_l.reset_parameters()
        self.lin_r.reset_parameters()

    def forward(self, x, adj_t):
        return self.lin_l(matmul(adj_t, x, reduce="mean")) + self.lin_r(x)

class SAGE(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels, num_layers,
                 dropout):
        super(SAGE, self).__init__()

        self.convs = torch.nn.ModuleList()
        self.convs.append(SAGEConv(in_channels, hidden_channels))
        self.bns = torch.nn.ModuleList()
        self.bns.append(torch.nn.BatchNorm1d(hidden_channels))
        for _ in range(num_layers - 2):
            self.convs.append(SAGEConv(hidden_channels, hidden_channels))
            self.bns.append(torch.nn.BatchNorm1d(hidden_channels))
        self.convs.append(SAGEConv(hidden_channels, out_channels))

        self.dropout = dropout

    def forward(self, x, adj_t):
        for i, conv in enumerate(self.convs[:-1]):
            x = conv(x, adj_t)
            x = self.bns[i](x)
            x = F.relu(x)
            x = F.dropout(x, p=self.dropout, training=self.training)
        x = self.convs[-1](x, adj_t)
        return x.log_softmax(dim=-1)

class Data:
    """Stand-in for the ogbn-arxiv torch_geometric Data object."""
    def __init__(self, x, y, adj_t):
        self.x, self.y, self.adj_t = x, y, adj_t

    @property
    def num_features(self):
        return self.x.size(-1)

    def to(self, device):
        return Data(self.x.to(device), self.y.to(device), self.adj_t.to(device))

class Evaluator:
    """Stand-in for ogb.nodeproppred.Evaluator('ogbn-arxiv')."""
    def eval(self, input_dict):
        y_true, y_pred = input_dict["y_true"], input_dict["y_pred"]
        return {"acc": (y_true == y_pred).float().mean()}

@torch.no_grad()
def test(model, data, split_idx, evaluator):
    model.eval()

    out = model(data.x, data.adj_t)
    y_pred = out.argmax(dim=-1, keepdim=True)

    train_acc = evaluator.eval({
        'y_true': data.y[split_idx['train']],
        'y_pred': y_pred[split_idx['train']],
    })['acc']
    valid_acc = evaluator.eval({
        'y_true': data.y[split_idx['valid']],
        'y_pred': y_pred[split_idx['valid']],
    })['acc']
    test_acc = evaluator.eval({
        'y_true': data.y[split_idx['test']],
        'y_pred': y_pred[split_idx['test']],
    })['acc']

    return train_acc, valid_acc, test_acc

device = torch.device("meta")                          # f'cuda:{args.device}'
num_nodes, num_classes = 300, 40
edge_index = torch.randint(0, num_nodes, (2, 1200))
data = Data(torch.randn(num_nodes, 128), torch.randint(0, num_classes, (num_nodes, 1)),
            SparseTensor(edge_index[1], edge_index[0], (num_nodes, num_nodes)))
data.adj_t = data.adj_t.to_symmetric()
data = data.to(device)

perm = torch.randperm(num_nodes)
split_idx = {'train': perm[:180], 'valid': perm[180:240], 'test': perm[240:]}
train_idx = split_idx['train'].to(device)

model = SAGE(data.num_features, 64, num_classes, 3, 0.5).to(device)
evaluator = Evaluator()
'''
CELL = '''
result = test(model, data, split_idx, evaluator)
train_acc, valid_acc, test_acc = result
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
