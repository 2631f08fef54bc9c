"""Look-alike: a PyTorch Geometric Temporal evaluation loop moves the static graph to the GPU once and each snapshot's features and targets inside the loop.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/130
"How to Use a GPU": the examples ran on the CPU; the maintainer's answer was "You can transfer the
model and the snapshots." For a StaticGraphTemporalSignal the edges are the same for every
snapshot, so the graph (`edge_index`, `edge_weight`) is moved once before the loop while `x`/`y` of
each CPU snapshot are moved per step, and the running cost starts as the Python int 0. This runs
correctly. Stand-in: a TGCN-style recurrent model (GCN-gated GRU over a dense normalised adjacency
built on the edge_index's device).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn.functional as F

def gcn_norm_dense(edge_index, edge_weight, num_nodes):
    nodes = torch.arange(num_nodes, device=edge_index.device)
    src = (edge_index[0].unsqueeze(1) == nodes).to(edge_weight.dtype)
    dst = (edge_index[1].unsqueeze(1) == nodes).to(edge_weight.dtype)
    A = (src * edge_weight.unsqueeze(1)).t() @ dst + torch.eye(num_nodes, device=edge_index.device)
    d = A.sum(1).pow(-0.5)
    return d[:, None] * A * d[None, :]

class TGCN(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.out_channels = out_channels
        self.conv_z = torch.nn.Linear(in_channels, out_channels)
        self.conv_r = torch.nn.Linear(in_channels, out_channels)
        self.conv_h = torch.nn.Linear(in_channels, out_channels)
        self.linear_z = torch.nn.Linear(2 * out_channels, out_channels)
        self.linear_r = torch.nn.Linear(2 * out_channels, out_channels)
        self.linear_h = torch.nn.Linear(2 * out_channels, out_channels)

    def forward(self, X, edge_index, edge_weight, H=None):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels).to(X.device)
        A = gcn_norm_dense(edge_index, edge_weight, X.shape[0])
        Z = torch.sigmoid(self.linear_z(torch.cat([A @ self.conv_z(X), H], dim=1)))
        R = torch.sigmoid(self.linear_r(torch.cat([A @ self.conv_r(X), H], dim=1)))
        H_tilde = torch.tanh(self.linear_h(torch.cat([A @ self.conv_h(X), H * R], dim=1)))
        return Z * H + (1 - Z) * H_tilde

class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super().__init__()
        self.recurrent = TGCN(node_features, 32)
        self.linear = torch.nn.Linear(32, 1)

    def forward(self, x, edge_index, edge_weight):
        return self.linear(F.relu(self.recurrent(x, edge_index, edge_weight)))

num_nodes, lags = 20, 4
src = torch.arange(num_nodes)
edge_index_cpu = torch.cat([torch.stack([src, (src + 1) % num_nodes]), torch.stack([(src + 1) % num_nodes, src])], 1)
edge_weight_cpu = torch.ones(edge_index_cpu.size(1))
test_dataset = [SimpleNamespace(x=torch.randn(num_nodes, lags), edge_index=edge_index_cpu,
                                edge_attr=edge_weight_cpu, y=torch.randn(num_nodes)) for _ in range(6)]

device = torch.device("cuda:0")
model = RecurrentGCN(node_features=lags).to(device)
edge_index = edge_index_cpu.to(device)
edge_weight = edge_weight_cpu.to(device)
'''
CELL = '''
model.eval()
cost = 0
with torch.no_grad():
    for time, snapshot in enumerate(test_dataset):
        y_hat = model(snapshot.x.to(device), edge_index, edge_weight)
        cost = cost + torch.mean((y_hat.squeeze(-1) - snapshot.y.to(device)) ** 2)
    cost = cost / (time + 1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
