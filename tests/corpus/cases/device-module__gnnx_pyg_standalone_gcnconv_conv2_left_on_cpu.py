"""PyG binary node classification on the GPU: the second GCNConv layer `conv2` was never moved to cuda.

Source: https://github.com/pyg-team/pytorch_geometric/issues/1446
After fixing the feature shape (`data.x.view(-1, 1)`) and dtype (`data.x.to(torch.float)`, per rusty1s),
the reporter hit a new error that "seems to be the weight. I didn't have weights in my Data object."
Resolution by the reporter: "It turned out that I didn't transfer `conv2` to gpu. After I did the
following: `conv2.cuda( )`, everything goes well". The thread's code was posted as screenshots; the
reconstruction keeps what it states: one float feature per node, long `edge_index`, long binary `y`,
GCNConv layers handled as separate objects with `conv2` left on the CPU. Stand-in: PyG 1.6 GCNConv
(`x @ self.weight`, symmetric normalisation, scatter-add propagation).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_channels, out_channels) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index):
        num_nodes = x.size(0)
        loop = torch.arange(num_nodes, device=edge_index.device)
        row = torch.cat([edge_index[0], loop])
        col = torch.cat([edge_index[1], loop])
        edge_weight = torch.ones(row.size(0), dtype=x.dtype, device=row.device)
        deg = torch.zeros(num_nodes, dtype=x.dtype, device=row.device).index_add_(0, col, edge_weight)
        deg_inv_sqrt = deg.pow(-0.5)
        norm = deg_inv_sqrt.index_select(0, row) * edge_weight * deg_inv_sqrt.index_select(0, col)
        x = torch.matmul(x, self.weight)
        msg = x.index_select(0, row) * norm.view(-1, 1)
        out = torch.zeros_like(x).index_add_(0, col, msg)
        return out + self.bias

class Data:
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

    def to(self, device):
        return Data(self.x.to(device), self.edge_index.to(device), self.y.to(device))

torch.manual_seed(0)
num_nodes = 40
src = torch.randint(0, num_nodes, (120,))
dst = torch.randint(0, num_nodes, (120,))
data = Data(x=torch.randint(0, 5, (num_nodes,)), edge_index=torch.stack([src, dst]),
            y=torch.randint(0, 2, (num_nodes,)))
data.x = data.x.view(-1, 1)
data.x = data.x.to(torch.float)

device = torch.device('cuda:0')
data = data.to(device)
conv1 = GCNConv(1, 16).to(device)
conv2 = GCNConv(16, 2)
'''
CELL = '''
with torch.no_grad():
    x = F.relu(conv1(data.x, data.edge_index))
    out = conv2(x, data.edge_index)
    loss = F.cross_entropy(out, data.y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["conv2"]
FIX = "namespace"
REFERENCE_FIX = '''
conv2 = conv2.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
