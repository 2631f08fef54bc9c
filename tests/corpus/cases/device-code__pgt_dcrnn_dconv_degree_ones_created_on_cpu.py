"""PyTorch Geometric Temporal's DConv (DCRNN) multiplies the GPU adjacency matrix with `torch.ones(...)` made on the CPU.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/pull/23
"dcrnn ones to device ... passed torch matrices to the same device as features x": DConv.forward
computed the degrees as `torch.matmul(adj_mat, torch.ones(size=(adj_mat.size(0), 1)))` and
`torch.matmul(torch.ones(size=(1, adj_mat.size(0))), adj_mat)`, so DCRNN failed as soon as the model
and the snapshots were on the GPU; the PR adds `.to(X.device)` to both. Stand-in: DConv/DCRNN with the
message passing written with index_add, `to_dense_adj` by index_put, and the reverse edges taken as
`edge_index.flip(0)` (instead of `dense_to_sparse(adj.T)`); "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn.functional as F

def to_dense_adj(edge_index, edge_attr, num_nodes):
    adj = torch.zeros(num_nodes, num_nodes, device=edge_attr.device)
    return adj.index_put((edge_index[0], edge_index[1]), edge_attr, accumulate=True).unsqueeze(0)

class DConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, K, bias=True):
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.weight = torch.nn.Parameter(torch.Tensor(2, K, in_channels, out_channels))
        self.bias = torch.nn.Parameter(torch.Tensor(out_channels))
        torch.nn.init.xavier_uniform_(self.weight)
        torch.nn.init.zeros_(self.bias)

    def propagate(self, edge_index, x, norm):
        src, dst = edge_index[0], edge_index[1]
        return torch.zeros_like(x).index_add_(0, dst, norm.view(-1, 1) * x.index_select(0, src))

    def forward(self, X, edge_index, edge_weight):
        adj_mat = to_dense_adj(edge_index, edge_weight, X.size(0))
        adj_mat = adj_mat.reshape(adj_mat.size(1), adj_mat.size(2))
        deg_out = torch.matmul(adj_mat, torch.ones(size=(adj_mat.size(0), 1)))
        deg_out = deg_out.flatten()
        deg_in = torch.matmul(torch.ones(size=(1, adj_mat.size(0))), adj_mat)
        deg_in = deg_in.flatten()
        deg_out_inv = torch.reciprocal(deg_out + 1e-8)
        deg_in_inv = torch.reciprocal(deg_in + 1e-8)
        row, col = edge_index[0], edge_index[1]
        norm_out = deg_out_inv[row]
        norm_in = deg_in_inv[row]
        reverse_edge_index = edge_index.flip(0)
        Tx_0 = X
        H = torch.matmul(Tx_0, (self.weight[0])[0]) + torch.matmul(Tx_0, (self.weight[1])[0])
        if self.weight.size(1) > 1:
            Tx_1_o = self.propagate(edge_index, x=X, norm=norm_out)
            Tx_1_i = self.propagate(reverse_edge_index, x=X, norm=norm_in)
            H = H + torch.matmul(Tx_1_o, (self.weight[0])[1]) + torch.matmul(Tx_1_i, (self.weight[1])[1])
        return H + self.bias

class DCRNN(torch.nn.Module):
    def __init__(self, in_channels, out_channels, K):
        super().__init__()
        self.out_channels = out_channels
        self.conv_x_z = DConv(in_channels + out_channels, out_channels, K)
        self.conv_x_r = DConv(in_channels + out_channels, out_channels, K)
        self.conv_x_h = DConv(in_channels + out_channels, out_channels, K)

    def forward(self, X, edge_index, edge_weight=None, H=None):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels).to(X.device)
        Z = torch.sigmoid(self.conv_x_z(torch.cat([X, H], dim=1), edge_index, edge_weight))
        R = torch.sigmoid(self.conv_x_r(torch.cat([X, H], dim=1), edge_index, edge_weight))
        H_tilde = torch.tanh(self.conv_x_h(torch.cat([X, H * R], dim=1), edge_index, edge_weight))
        return Z * H + (1 - Z) * H_tilde

class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = DCRNN(node_features, 32, 2)
        self.linear = torch.nn.Linear(32, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        h = F.relu(h)
        return self.linear(h)

device = torch.device("meta")          # the GPU
num_nodes = 20
edge_index = torch.randint(0, num_nodes, (2, 80))
train_dataset = [SimpleNamespace(x=torch.randn(num_nodes, 4), edge_index=edge_index, edge_attr=torch.rand(80),
                                 y=torch.randn(num_nodes)) for _ in range(3)]
model = RecurrentGCN(node_features=4).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
'''
CELL = '''
model.train()
cost = 0
for time, snapshot in enumerate(train_dataset):
    x, ei, ew, y = (snapshot.x.to(device), snapshot.edge_index.to(device),
                    snapshot.edge_attr.to(device), snapshot.y.to(device))
    y_hat = model(x, ei, ew)
    cost = cost + torch.mean((y_hat - y) ** 2)
cost = cost / (time + 1)
cost.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """deg_out = torch.matmul(adj_mat, torch.ones(size=(adj_mat.size(0), 1)))
        deg_out = deg_out.flatten()
        deg_in = torch.matmul(torch.ones(size=(1, adj_mat.size(0))), adj_mat)""",
    """deg_out = torch.matmul(adj_mat, torch.ones(size=(adj_mat.size(0), 1)).to(X.device))
        deg_out = deg_out.flatten()
        deg_in = torch.matmul(torch.ones(size=(1, adj_mat.size(0))).to(X.device), adj_mat)""",
)
CLEAN = False
