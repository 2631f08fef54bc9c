"""PyG node classification on one's own graph: `x` built from NumPy is float64 and the GCNConv weights are float32.

Source: https://github.com/pyg-team/pytorch_geometric/issues/1134
"Error on a single graph": following the PyG introduction example on custom data,
`dataset = Data(x=x, edge_index=edge_index, train_mask=train_mask, test_mask=test_mask, y=y)` and the
two-layer GCN fail in `self.conv1(x, edge_index)` at the weight multiplication: "Expected object of
scalar type Double but got scalar type Float for argument #2 'mat2'". The node features came from
a NumPy array (float64); the layers are float32. Stand-in: a minimal Data object (with `to()`
returning itself, as PyG's does) and GCNConv with its `lin` and symmetric normalisation.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

class Data:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    @property
    def num_node_features(self):
        return self.x.size(1)

    def to(self, device):
        for k, v in self.__dict__.items():
            if torch.is_tensor(v):
                setattr(self, k, v.to(device))
        return self

class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = torch.nn.Linear(in_channels, out_channels, bias=False)
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n).repeat(2, 1)
        row, col = torch.cat([edge_index, loops], dim=1).unbind(0)
        deg = torch.zeros(n).index_add_(0, col, torch.ones(col.numel()))
        norm = (deg.pow(-0.5).index_select(0, row) * deg.pow(-0.5).index_select(0, col)).unsqueeze(-1)
        x = self.lin(x)
        out = torch.zeros_like(x).index_add_(0, col, x.index_select(0, row) * norm)
        return out + self.bias

features = np.random.rand(30, 8)                  # node features read with NumPy/pandas (float64)
x = torch.from_numpy(features)
edge_index = torch.randint(0, 30, (2, 90))
y = torch.randint(0, 2, (30,))
train_mask = torch.rand(30) < 0.7
test_mask = ~train_mask
dataset = Data(x=x, edge_index=edge_index, train_mask=train_mask, test_mask=test_mask, y=y)

class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = GCNConv(dataset.num_node_features, 16)
        self.conv2 = GCNConv(16, 2)

    def forward(self, data):
        x, edge_index = data.x, data.edge_index
        x = self.conv1(x, edge_index)
        x = F.relu(x)
        x = F.dropout(x, training=self.training)
        x = self.conv2(x, edge_index)
        return F.log_softmax(x, dim=1)

device = torch.device("cpu")
model = Net().to(device)
data = dataset.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
'''
CELL = '''
model.train()
for epoch in range(5):
    optimizer.zero_grad()
    out = model(data)
    loss = F.nll_loss(out[data.train_mask], data.y[data.train_mask])
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype")
CULPRITS = ["data.x"]
FIX = "namespace"
REFERENCE_FIX = '''
data.x = data.x.float()
'''
REFERENCE_EDIT = None
CLEAN = False
