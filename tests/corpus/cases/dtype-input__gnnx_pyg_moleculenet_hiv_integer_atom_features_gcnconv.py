"""PyG GCNConv on MoleculeNet HIV: the integer (torch.long) atom features make gcn_norm build Long edge weights.

Source: https://github.com/pyg-team/pytorch_geometric/issues/1660
The reporter fed `MoleculeNet(root, name='HIV')` graphs straight into the two-layer GCNConv example and got
"RuntimeError: result type Float can't be cast to the desired output type Long". MoleculeNet's `x` holds
9 categorical (integer) atom features; GCNConv normalises with `gcn_norm(..., dtype=x.dtype)`, so the
edge weights and degrees are Long and `deg.pow_(-0.5)` fails. rusty1s: use an `AtomEncoder` (one
`Embedding(100, hidden)` per feature column, summed) in front of the convolutions; the reporter:
"Worked!". Stand-in: GCNConv/gcn_norm as in PyG 1.6 (ones of `dtype=x.dtype`, remaining self-loops,
scatter-add degree, in-place `pow_`), a Data-like graph with the HIV feature layout.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def scatter_add(src, index, dim=0, dim_size=None):
    out = src.new_zeros(dim_size)
    return out.index_add_(0, index, src)

def add_remaining_self_loops(edge_index, edge_weight, fill_value, num_nodes):
    row, col = edge_index[0], edge_index[1]
    mask = row != col
    loop_index = torch.arange(0, num_nodes, dtype=row.dtype, device=row.device)
    loop_index = loop_index.unsqueeze(0).repeat(2, 1)
    loop_weight = edge_weight.new_full((num_nodes, ), fill_value)
    edge_index = torch.cat([edge_index[:, mask], loop_index], dim=1)
    edge_weight = torch.cat([edge_weight[mask], loop_weight], dim=0)
    return edge_index, edge_weight

def gcn_norm(edge_index, edge_weight=None, num_nodes=None, improved=False,
             add_self_loops=True, dtype=None):
    fill_value = 2. if improved else 1.
    if edge_weight is None:
        edge_weight = torch.ones((edge_index.size(1), ), dtype=dtype, device=edge_index.device)
    if add_self_loops:
        edge_index, edge_weight = add_remaining_self_loops(edge_index, edge_weight, fill_value, num_nodes)
    row, col = edge_index[0], edge_index[1]
    deg = scatter_add(edge_weight, col, dim=0, dim_size=num_nodes)
    deg_inv_sqrt = deg.pow_(-0.5)
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float('inf'), 0)
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_channels, out_channels) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index, edge_weight=None):
        edge_index, edge_weight = gcn_norm(edge_index, edge_weight, x.size(0), dtype=x.dtype)
        x = torch.matmul(x, self.weight)
        out = torch.zeros_like(x).index_add_(0, edge_index[1], x[edge_index[0]] * edge_weight.view(-1, 1))
        return out + self.bias

class Data:
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

class MoleculeNet:
    """HIV: x = 9 integer atom features per node (atomic number, chirality, degree, ...)."""
    num_node_features = 9
    num_classes = 2
    def __init__(self, root, name):
        gen = torch.Generator().manual_seed(0)
        n = 12
        src = torch.arange(n - 1)
        self.graphs = [Data(x=torch.randint(0, 10, (n, 9), generator=gen),
                            edge_index=torch.stack([torch.cat([src, src + 1]), torch.cat([src + 1, src])]),
                            y=torch.tensor([[0]]))]
    def __getitem__(self, i):
        return self.graphs[i]

dataset = MoleculeNet(root='/tmp', name='HIV')

class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = GCNConv(dataset.num_node_features, 16)
        self.conv2 = GCNConv(16, dataset.num_classes)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index

        x = self.conv1(x, edge_index)
        x = F.relu(x)
        x = F.dropout(x, training=self.training)
        x = self.conv2(x, edge_index)

        return F.log_softmax(x, dim=1)

device = torch.device('cpu')
model = Net().to(device)
data = dataset[0]
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
model.train()
'''
CELL = '''
optimizer.zero_grad()
out = model(data)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = GCNConv(dataset.num_node_features, 16)
        self.conv2 = GCNConv(16, dataset.num_classes)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index
""",
    """class AtomEncoder(torch.nn.Module):
    def __init__(self, hidden_channels):
        super(AtomEncoder, self).__init__()
        self.embeddings = torch.nn.ModuleList()
        for i in range(9):
            self.embeddings.append(torch.nn.Embedding(100, hidden_channels))

    def forward(self, x):
        if x.dim() == 1:
            x = x.unsqueeze(1)
        out = 0
        for i in range(x.size(1)):
            out += self.embeddings[i](x[:, i])
        return out

class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.atom_encoder = AtomEncoder(16)
        self.conv1 = GCNConv(16, 16)
        self.conv2 = GCNConv(16, dataset.num_classes)

    def forward(self, data):
        x, edge_index = self.atom_encoder(data.x), data.edge_index
""",
)
CLEAN = False
