"""pygcn (Kipf): the scipy adjacency is cast to float32 before it becomes a torch sparse tensor; `accuracy` counts in float64 on purpose.

Source: https://github.com/tkipf/pygcn/blob/master/pygcn/utils.py
`load_data` row-normalises the Cora adjacency in scipy and converts it with
`sparse_mx_to_torch_sparse_tensor`, whose first line is `sparse_mx.tocoo().astype(np.float32)`, so
the sparse `adj` (float32 values, int64 indices) matches the float32 features and weights in
`torch.spmm(adj, support)`. `accuracy` deliberately turns the hits into `.double()` before summing;
`labels` are int64 for `nll_loss`. Look-alike: numpy/scipy float64 data, a sparse matmul, a float64
tensor in the metric; it runs. Stand-ins: a small scipy-like COO matrix (scipy is not installed
here) and the GCN model of pygcn/models.py with `GraphConvolution` using `torch.spmm` (as in
later pygcn versions); Cora replaced by a random graph. SIM cpu.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class coo_matrix:
    """Stand-in for scipy.sparse.coo_matrix (row, col, data, shape)."""
    def __init__(self, data, row, col, shape):
        self.data, self.row, self.col, self.shape = data, row, col, shape

    def tocoo(self):
        return self

    def astype(self, dtype):
        return coo_matrix(self.data.astype(dtype), self.row, self.col, self.shape)

def sparse_mx_to_torch_sparse_tensor(sparse_mx):
    """Convert a scipy sparse matrix to a torch sparse tensor."""
    sparse_mx = sparse_mx.tocoo().astype(np.float32)
    indices = torch.from_numpy(np.vstack((sparse_mx.row,
                                          sparse_mx.col))).long()
    values = torch.from_numpy(sparse_mx.data)
    shape = torch.Size(sparse_mx.shape)
    return torch.sparse_coo_tensor(indices, values, shape)

def accuracy(output, labels):
    preds = output.max(1)[1].type_as(labels)
    correct = preds.eq(labels).double()
    correct = correct.sum()
    return correct / len(labels)

class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super(GraphConvolution, self).__init__()
        self.weight = nn.Parameter(torch.FloatTensor(in_features, out_features))
        self.bias = nn.Parameter(torch.FloatTensor(out_features)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None:
            self.bias.data.uniform_(-stdv, stdv)

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.spmm(adj, support)
        if self.bias is not None:
            return output + self.bias
        return output

class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout):
        super(GCN, self).__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)

rng = np.random.default_rng(0)
n = 200
row = rng.integers(0, n, 800).astype(np.int32)
col = rng.integers(0, n, 800).astype(np.int32)
row, col = np.concatenate([row, np.arange(n, dtype=np.int32)]), np.concatenate([col, np.arange(n, dtype=np.int32)])
deg = np.bincount(row, minlength=n).astype(np.float64)
adj = coo_matrix(1.0 / deg[row], row, col, (n, n))                  # row-normalised, float64
features = torch.FloatTensor(rng.random((n, 64)))
labels = torch.LongTensor(rng.integers(0, 7, n))
adj = sparse_mx_to_torch_sparse_tensor(adj)
idx_test = torch.LongTensor(range(100, 200))
model = GCN(nfeat=features.shape[1], nhid=16, nclass=int(labels.max()) + 1, dropout=0.5)
'''
CELL = '''
model.eval()
output = model(features, adj)
loss_test = F.nll_loss(output[idx_test], labels[idx_test])
acc_test = accuracy(output[idx_test], labels[idx_test])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
