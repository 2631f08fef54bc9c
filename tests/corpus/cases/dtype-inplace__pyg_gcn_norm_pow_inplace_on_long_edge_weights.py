"""PyG GCNConv with integer edge weights: `gcn_norm` computes the degree as a LongTensor and `deg.pow_(-0.5)` fails in place.

Source: https://github.com/pyg-team/pytorch_geometric/issues/2334
"GCNconv uses pow_ instead of pow": the reporter's GCNConv failed in `gcn_norm` at
`deg_inv_sqrt = deg.pow_(-0.5)` with "result type Float can't be cast to the desired output type
Long". The maintainer asked which dtype the edge weights passed to the operator have; the user's
dataloader produced integer (count) edge weights, so `scatter_add(edge_weight, col)` gives an integer
degree and the in-place float power cannot be written back. Stand-in: PyG 1.7's gcn_norm
(add_remaining_self_loops, scatter_add) and GCNConv, with the graph batch as a small Data object.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn.functional as F

def scatter_add(src, index, dim=0, dim_size=None):
    return torch.zeros(dim_size, dtype=src.dtype).index_add_(0, index, src)

def add_remaining_self_loops(edge_index, edge_weight, fill_value, num_nodes):
    row, col = edge_index[0], edge_index[1]
    mask = row != col
    loop_index = torch.arange(0, num_nodes, dtype=row.dtype).unsqueeze(0).repeat(2, 1)
    edge_index = torch.cat([edge_index[:, mask], loop_index], dim=1)
    loop_weight = edge_weight.new_full((num_nodes, ), fill_value)
    edge_weight = torch.cat([edge_weight[mask], loop_weight], dim=0)
    return edge_index, edge_weight

def gcn_norm(edge_index, edge_weight=None, num_nodes=None, improved=False, add_self_loops=True, dtype=None):
    fill_value = 2. if improved else 1.
    if edge_weight is None:
        edge_weight = torch.ones((edge_index.size(1), ), dtype=dtype, device=edge_index.device)
    if add_self_loops:
        edge_index, tmp_edge_weight = add_remaining_self_loops(edge_index, edge_weight, fill_value, num_nodes)
        edge_weight = tmp_edge_weight
    row, col = edge_index[0], edge_index[1]
    deg = scatter_add(edge_weight, col, dim=0, dim_size=num_nodes)
    deg_inv_sqrt = deg.pow_(-0.5)
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float('inf'), 0)
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]

class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, improved=False, add_self_loops=True):
        super().__init__()
        self.improved, self.add_self_loops = improved, add_self_loops
        self.weight = torch.nn.Parameter(torch.empty(in_channels, out_channels))
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))
        torch.nn.init.xavier_uniform_(self.weight)

    def forward(self, x, edge_index, edge_weight=None):
        edge_index, edge_weight = gcn_norm(edge_index, edge_weight, x.size(0), self.improved,
                                           self.add_self_loops, dtype=x.dtype)
        x = x @ self.weight
        src, dst = edge_index[0], edge_index[1]
        out = torch.zeros_like(x).index_add_(0, dst, edge_weight.view(-1, 1) * x.index_select(0, src))
        return out + self.bias

class Net(torch.nn.Module):
    def __init__(self, num_features, num_classes):
        super().__init__()
        self.conv1 = GCNConv(num_features, 16)
        self.conv2 = GCNConv(16, num_classes)

    def forward(self, x, edge_index, edge_weight):
        x = F.relu(self.conv1(x, edge_index, edge_weight))
        return F.log_softmax(self.conv2(x, edge_index, edge_weight), dim=1)

# one batch from the user's dataloader: edge weights are co-occurrence counts (integers)
num_nodes = 30
edge_index = torch.randint(0, num_nodes, (2, 100))
data = SimpleNamespace(x=torch.randn(num_nodes, 8), edge_index=edge_index,
                       edge_weight=torch.randint(1, 5, (100,)), y=torch.randint(0, 3, (num_nodes,)))
model = Net(8, 3)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
'''
CELL = '''
optimizer.zero_grad()
out = model(data.x, data.edge_index, data.edge_weight)
loss = F.nll_loss(out, data.y)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["data.edge_weight"]
FIX = "namespace"
REFERENCE_FIX = '''
data.edge_weight = data.edge_weight.float()
'''
REFERENCE_EDIT = None
CLEAN = False
