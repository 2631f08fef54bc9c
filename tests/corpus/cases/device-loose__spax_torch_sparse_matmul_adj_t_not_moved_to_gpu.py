"""torch_sparse `matmul(adj_t, x)` inside a custom MessagePassing layer: the SparseTensor `adj_t` was never moved to the GPU.

Source: https://github.com/rusty1s/pytorch_sparse/issues/114
The user's `message_and_aggregate` returned `matmul(adj_t, x, reduce=self.aggr)` and training died in
`torch.ops.torch_sparse.spmm_sum` with "mat.device().is_cpu() INTERNAL ASSERT FAILED at
.../csrc/cpu/spmm_cpu.cpp":14 ... mat must be CPU tensor". The maintainer: "This looks like `adj_t`
and `x` do not sit on the same device"; the user: "The problem is fixed. I did not move adj_t to GPU."
torch_sparse picks the kernel from the sparse matrix's `rowptr` device (CPU here) and that kernel
then rejects the CUDA feature matrix. Stand-ins: `torch_sparse.SparseTensor` (row/rowptr/col/value
storage, `.t()`, `.to()`), `torch_sparse.matmul` -> `spmm_sum` with the C++ device dispatch and
CHECK_CPU/CHECK_CUDA asserts, and `MessagePassing.propagate` routing a SparseTensor to
`message_and_aggregate`; the user's layer is a GIN-style sum aggregation (the issue shows only the
`message_and_aggregate` line).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class SparseTensor:
    """Stand-in for torch_sparse.SparseTensor: COO row/col + CSR rowptr kept together."""
    def __init__(self, row, col, value=None, sparse_sizes=None, rowptr=None):
        if sparse_sizes is None:
            sparse_sizes = (int(row.max()) + 1, int(col.max()) + 1)
        self.sparse_sizes = tuple(sparse_sizes)
        self.row, self.col, self.value = row, col, value
        if rowptr is None:
            counts = torch.zeros(self.sparse_sizes[0], dtype=torch.long, device=row.device)
            counts.scatter_add_(0, row, torch.ones_like(row))
            rowptr = torch.cat([counts.new_zeros(1), counts.cumsum(0)])
        self.rowptr = rowptr

    def t(self):
        perm = torch.argsort(self.col * self.sparse_sizes[1] + self.row)
        value = None if self.value is None else self.value[perm]
        return SparseTensor(self.col[perm], self.row[perm], value,
                            (self.sparse_sizes[1], self.sparse_sizes[0]))

    def csr(self):
        return self.rowptr, self.col, self.value

    def device(self):
        return self.col.device

    def to(self, device):
        value = None if self.value is None else self.value.to(device)
        return SparseTensor(self.row.to(device), self.col.to(device), value,
                            self.sparse_sizes, self.rowptr.to(device))

def _spmm_sum_op(row, rowptr, col, value, mat):
    """torch.ops.torch_sparse.spmm_sum: the kernel is chosen from rowptr's device."""
    if rowptr.device.type == "cuda":
        if mat.device.type != "cuda":
            raise RuntimeError('mat.device().is_cuda() INTERNAL ASSERT FAILED at '
                               '"csrc/cuda/spmm_cuda.cu":32, please report a bug to PyTorch. '
                               'mat must be CUDA tensor')
    elif mat.device.type != "cpu":
        raise RuntimeError('mat.device().is_cpu() INTERNAL ASSERT FAILED at '
                           '"csrc/cpu/spmm_cpu.cpp":14, please report a bug to PyTorch. '
                           'mat must be CPU tensor')
    msg = mat.index_select(0, col)
    if value is not None:
        msg = msg * value.view(-1, 1)
    out = torch.zeros(rowptr.numel() - 1, mat.size(1), dtype=mat.dtype, device=mat.device)
    return out.index_add_(0, row, msg)

def spmm_sum(src, other):
    rowptr, col, value = src.csr()
    return _spmm_sum_op(src.row, rowptr, col, value, other)

def matmul(src, other, reduce="sum"):
    """Stand-in for torch_sparse.matmul (sparse x dense, sum aggregation)."""
    if reduce in ("sum", "add"):
        return spmm_sum(src, other)
    raise ValueError(reduce)

class MessagePassing(nn.Module):
    """Stand-in for torch_geometric.nn.MessagePassing (SparseTensor path only)."""
    def __init__(self, aggr="add"):
        super().__init__()
        self.aggr = aggr

    def propagate(self, edge_index, x):
        if isinstance(edge_index, SparseTensor):
            return self.message_and_aggregate(edge_index, x)
        raise NotImplementedError

class GINLayer(MessagePassing):
    def __init__(self, in_channels, out_channels):
        super().__init__(aggr="add")
        self.mlp = nn.Sequential(nn.Linear(in_channels, out_channels), nn.ReLU(),
                                 nn.Linear(out_channels, out_channels))

    def forward(self, x, adj_t):
        out = self.propagate(adj_t, x=x)
        return self.mlp(x + out)

    def message_and_aggregate(self, adj_t, x):
        return matmul(adj_t, x, reduce=self.aggr)

class Net(nn.Module):
    def __init__(self, in_channels, hidden, num_classes):
        super().__init__()
        self.conv1 = GINLayer(in_channels, hidden)
        self.conv2 = GINLayer(hidden, hidden)
        self.lin = nn.Linear(hidden, num_classes)

    def forward(self, x, adj_t):
        x = self.conv1(x, adj_t).relu()
        x = self.conv2(x, adj_t).relu()
        return self.lin(x).log_softmax(dim=-1)

device = torch.device("cuda:0")
num_nodes, num_features = 100, 16
edge_index = torch.randint(0, num_nodes, (2, 400))                  # dataset graph, CPU
adj_t = SparseTensor(edge_index[0], edge_index[1],
                     sparse_sizes=(num_nodes, num_nodes)).t()       # T.ToSparseTensor()
model = Net(num_features, 32, 7).to(device)
x = torch.randn(num_nodes, num_features).to(device)
'''
CELL = '''
model.eval()
out = model(x, adj_t)
pred = out.argmax(dim=-1)
'''
EXPECT_ERROR = "mat must be CPU tensor"
CULPRITS = ["adj_t"]
FIX = "namespace"
REFERENCE_FIX = '''
adj_t = adj_t.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
