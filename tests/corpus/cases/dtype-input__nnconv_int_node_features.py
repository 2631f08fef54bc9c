"""Integer node features fed to an edge-conditioned graph convolution (NNConv).

Source: https://github.com/pyg-team/pytorch_geometric/issues/273
The user's graph had integer node features (`data.x = data.x.int()`) and called
`conv1(data.x, data.edge_index, data.edge_attr.float())`; NNConv's message multiplies each
neighbour's features by a weight matrix produced from the edge attributes, and torch.matmul
refused an int and a float operand. The node features were the culprit: the layer needs floats
(`data.x.float()`). Stand-in: a `Data` holder and NNConv's message/aggregate in plain torch.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class Data:
    def __init__(self, x, edge_index, edge_attr):
        self.x, self.edge_index, self.edge_attr = x, edge_index, edge_attr

class NNConv(nn.Module):
    def __init__(self, in_channels, out_channels, nn_):
        super().__init__()
        self.in_channels, self.out_channels, self.nn = in_channels, out_channels, nn_

    def forward(self, x, edge_index, edge_attr):
        x = x.unsqueeze(-1) if x.dim() == 1 else x
        pseudo = edge_attr.unsqueeze(-1) if edge_attr.dim() == 1 else edge_attr
        weight = self.nn(pseudo).view(-1, self.in_channels, self.out_channels)
        x_j = x[edge_index[0]]
        msg = torch.matmul(x_j.unsqueeze(1), weight).squeeze(1)
        out = torch.zeros(x.size(0), self.out_channels, dtype=msg.dtype)
        return out.index_add_(0, edge_index[1], msg)

edge_nn = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 3 * 8))
conv1 = NNConv(3, 8, edge_nn)
edge_index = torch.tensor([[0, 1, 1, 2, 2, 3], [1, 0, 2, 1, 3, 2]])
data = Data(x=torch.randint(0, 5, (4, 3)), edge_index=edge_index, edge_attr=torch.rand(6, 2))
data.x = data.x.int()
'''
CELL = '''
out = conv1(data.x, data.edge_index, data.edge_attr.float())
'''
EXPECT_ERROR = "expected scalar type Int but found Float"
CULPRITS = ["data.x"]
FIX = "namespace"
REFERENCE_FIX = '''
data.x = data.x.float()
'''
REFERENCE_EDIT = None
CLEAN = False
