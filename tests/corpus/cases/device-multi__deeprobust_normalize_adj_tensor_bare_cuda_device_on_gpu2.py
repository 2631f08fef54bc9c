"""DeepRobust GCN on cuda:2: `normalize_adj_tensor` rebuilds the device as `torch.device("cuda")`, i.e. the current GPU cuda:0.

Source: https://github.com/DSE-MSU/DeepRobust/issues/74
"I've encountered a problem when testing GNNs on devices other than `cuda:0`. To reproduce, simply
modifying line 18 in `test_gcn.py` to `device = torch.device("cuda:2" ...)`": "RuntimeError: Expected
all tensors to be on the same device". The reporter traced it to `normalize_adj_tensor` /
`degree_normalize_adj_tensor`, which do `device = torch.device("cuda" if adj.is_cuda else "cpu")`
and `mx = adj + torch.eye(adj.shape[0]).to(device)`: a bare "cuda" is the current device, so the
identity lands on cuda:0 while the adjacency is on cuda:2 (the maintainers: `torch.device("cuda")`
defaults to the current device). Stand-in: DeepRobust's `GraphConvolution` / `GCN` with `fit` reduced
to the normalization and one forward pass (the simulator runs no autograd), a dense random graph
instead of Cora (the sparse path round-trips through scipy), `torch.isinf` masking written with
`torch.where`, `type(x) is not torch.Tensor` as `isinstance`, `"cuda"` written `"cuda:0"` (the
simulator has no current device).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parameter import Parameter

def normalize_adj_tensor(adj, sparse=False):
    device = torch.device("cuda:0" if adj.is_cuda else "cpu")     # torch.device("cuda" if adj.is_cuda else "cpu")
    mx = adj + torch.eye(adj.shape[0]).to(device)
    rowsum = mx.sum(1)
    r_inv = rowsum.pow(-1/2).flatten()
    r_inv = torch.where(torch.isinf(r_inv), torch.zeros_like(r_inv), r_inv)   # r_inv[torch.isinf(r_inv)] = 0.
    r_mat_inv = torch.diag(r_inv)
    mx = r_mat_inv @ mx
    mx = mx @ r_mat_inv
    return mx

class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, with_bias=True):
        super(GraphConvolution, self).__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(torch.FloatTensor(in_features, out_features))
        self.bias = Parameter(torch.FloatTensor(out_features)) if with_bias else None
        stdv = 1. / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None:
            self.bias.data.uniform_(-stdv, stdv)

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.mm(adj, support)                          # torch.spmm for sparse adj
        return output + self.bias if self.bias is not None else output

class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout=0.5, lr=0.01, weight_decay=5e-4, with_relu=True,
                 with_bias=True, device=None):
        super(GCN, self).__init__()
        assert device is not None, "Please specify 'device'!"
        self.device = device
        self.nfeat, self.hidden_sizes, self.nclass = nfeat, [nhid], nclass
        self.gc1 = GraphConvolution(nfeat, nhid, with_bias=with_bias)
        self.gc2 = GraphConvolution(nhid, nclass, with_bias=with_bias)
        self.dropout, self.lr, self.weight_decay = dropout, lr, weight_decay
        self.with_relu = with_relu

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj)) if self.with_relu else self.gc1(x, adj)
        x = F.dropout(x, self.dropout, training=self.training)
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)

    def fit(self, features, adj, labels, idx_train, idx_val=None, train_iters=200, normalize=True, verbose=False):
        self.device = self.gc1.weight.device
        if not isinstance(adj, torch.Tensor):                    # type(adj) is not torch.Tensor
            features, adj, labels = (torch.FloatTensor(features), torch.FloatTensor(adj), torch.LongTensor(labels))
        features, adj, labels = features.to(self.device), adj.to(self.device), labels.to(self.device)
        if normalize:
            adj_norm = normalize_adj_tensor(adj)
        else:
            adj_norm = adj
        self.adj_norm, self.features, self.labels = adj_norm, features, labels
        self.eval()
        self.output = self.forward(self.features, self.adj_norm)

device = torch.device("cuda:2")
n, nfeat, nclass = 60, 32, 7
adj = (torch.rand(n, n) < 0.05).float()
adj = ((adj + adj.t()) > 0).float()
features = torch.rand(n, nfeat)
labels = torch.randint(0, nclass, (n,))
idx_train = np.arange(20)
model = GCN(nfeat=features.shape[1], nhid=16, nclass=nclass, device=device)
model = model.to(device)
'''
CELL = '''
model.fit(features, adj, labels, idx_train, train_iters=200, verbose=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('device = torch.device("cuda:0" if adj.is_cuda else "cpu")',
                  "device = adj.device")
CLEAN = False
