"""PyG `gcn_norm`: with no `edge_weight`, the unit weights are created inside the conv on `edge_index.device`.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/torch_geometric/nn/conv/gcn_conv.py
`GCNConv.forward` calls `gcn_norm(edge_index, edge_weight, x.size(self.node_dim), ...)`; when the
graph has no weights it builds `edge_weight = torch.ones((edge_index.size(1), ), dtype=dtype,
device=edge_index.device)`, computes the degree with `scatter_add(edge_weight, col, dim=0,
dim_size=num_nodes)`, `deg.pow_(-0.5)` with `masked_fill_` for isolated nodes, and returns the
normalised weights used in `message`. Look-alike: a tensor created inside the layer's helper with
no input tensor in sight; it follows `edge_index` and runs. Stand-ins: `gcn_norm` and `GCNConv` of
the PyG 1.6 file (the edge_index path, `add_self_loops=False` to skip the data-dependent
self-loop filtering), `MessagePassing.propagate` as gather + `scatter_add`. SIM meta: "meta" plays
the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import Tensor
from torch.nn import Parameter

def scatter_add(src, index, dim=0, dim_size=None):
    out = torch.zeros((dim_size,) + tuple(src.shape[1:]), dtype=src.dtype, device=src.device)
    return out.index_add_(dim, index, src)

def gcn_norm(edge_index, edge_weight=None, num_nodes=None, improved=False,
             add_self_loops=True, dtype=None):

    fill_value = 2. if improved else 1.

    if edge_weight is None:
        edge_weight = torch.ones((edge_index.size(1), ), dtype=dtype,
                                 device=edge_index.device)

    if add_self_loops:
        raise NotImplementedError("add_remaining_self_loops not part of this stand-in")

    row, col = edge_index[0], edge_index[1]
    deg = scatter_add(edge_weight, col, dim=0, dim_size=num_nodes)
    deg_inv_sqrt = deg.pow_(-0.5)
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float('inf'), 0)
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]

class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, improved=False, cached=False,
                 add_self_loops=True, normalize=True, bias=True):
        super().__init__()
        self.node_dim = 0
        self.improved = improved
        self.cached = cached
        self.add_self_loops = add_self_loops
        self.normalize = normalize
        self._cached_edge_index = None
        self.weight = Parameter(torch.empty(in_channels, out_channels))
        self.bias = Parameter(torch.zeros(out_channels)) if bias else None
        a = math.sqrt(6.0 / (in_channels + out_channels))
        torch.nn.init.uniform_(self.weight, -a, a)

    def forward(self, x: Tensor, edge_index: Tensor, edge_weight=None) -> Tensor:
        if self.normalize:
            cache = self._cached_edge_index
            if cache is None:
                edge_index, edge_weight = gcn_norm(  # yapf: disable
                    edge_index, edge_weight, x.size(self.node_dim),
                    self.improved, self.add_self_loops)
                if self.cached:
                    self._cached_edge_index = (edge_index, edge_weight)
            else:
                edge_index, edge_weight = cache[0], cache[1]

        x = x @ self.weight
        out = self.propagate(edge_index, x=x, edge_weight=edge_weight)
        if self.bias is not None:
            out += self.bias
        return out

    def propagate(self, edge_index, x, edge_weight):
        x_j = x.index_select(0, edge_index[0])
        msg = self.message(x_j, edge_weight)
        return scatter_add(msg, edge_index[1], dim=0, dim_size=x.size(0))

    def message(self, x_j: Tensor, edge_weight) -> Tensor:
        return x_j if edge_weight is None else edge_weight.view(-1, 1) * x_j

device = torch.device("meta")                          # torch.device("cuda")
num_nodes = 120
edge_index = torch.randint(0, num_nodes, (2, 600)).to(device)
x = torch.randn(num_nodes, 32).to(device)
conv = GCNConv(32, 16, add_self_loops=False).to(device)
'''
CELL = '''
with torch.no_grad():
    out = conv(x, edge_index).relu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
