"""GCN node classification on a hand-built graph: `data.x` holds int64 features, GCNConv's weight is float.

Source: https://github.com/pyg-team/pytorch_geometric/issues/1299
"Can't get this GCN to work": the user's `Net` (two `GCNConv` layers, `forward` reading the global
`data.x, data.edge_index, data.edge_attr`) failed in `conv1` at `x = torch.matmul(x, self.weight)`
with "Expected object of scalar type Long but got scalar type Float for argument #2 'mat2'": the
node features were built from integer values, so `data.x` is a LongTensor while the layer's weight
is float32. Stand-in: a minimal `GCNConv` (weight matmul, then normalized dense propagation with the
edge weights) and a `Data`-like container in place of torch_geometric.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Data:
    def __init__(self, x, edge_index, edge_attr, y):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y
        self.num_features = x.size(1)
        self.num_classes = int(y.max()) + 1

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels, cached=False):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_channels, out_channels))
        self.bias = nn.Parameter(torch.zeros(out_channels))
        nn.init.xavier_uniform_(self.weight)
    def forward(self, x, edge_index, edge_weight=None):
        x = torch.matmul(x, self.weight)
        n = x.size(0)
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1))
        adj = torch.zeros(n, n).index_put_((edge_index[0], edge_index[1]), edge_weight, accumulate=True)
        adj = adj + torch.eye(n)
        deg_inv_sqrt = adj.sum(1).pow(-0.5)
        adj = deg_inv_sqrt.view(-1, 1) * adj * deg_inv_sqrt.view(1, -1)
        return adj @ x + self.bias

num_nodes = 20
x = torch.randint(0, 5, (num_nodes, 8))                     # integer-valued node features
edge_index = torch.randint(0, num_nodes, (2, 60))
edge_attr = torch.rand(60)
y = torch.randint(0, 3, (num_nodes,))
data = Data(x=x, edge_index=edge_index, edge_attr=edge_attr, y=y)
dataset = data

class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = GCNConv(dataset.num_features, 16, cached=True)
        self.conv2 = GCNConv(16, int(dataset.num_classes), cached=True)
        self.reg_params = self.conv1.parameters()
        self.non_reg_params = self.conv2.parameters()

    def forward(self):
        x, edge_index, edge_weight = data.x, data.edge_index, data.edge_attr
        x = F.relu(self.conv1(x, edge_index, edge_weight))
        x = F.dropout(x, training=self.training)
        x = self.conv2(x, edge_index, edge_weight)
        return F.log_softmax(x, dim=1)

model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
'''
CELL = '''
model.train()
optimizer.zero_grad()
loss = F.nll_loss(model(), data.y)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype",
                "expected scalar type",
                "mat1 and mat2 must have the same dtype")
CULPRITS = ["data.x"]
FIX = "namespace"
REFERENCE_FIX = '''
data.x = data.x.float()
'''
REFERENCE_EDIT = None
CLEAN = False
