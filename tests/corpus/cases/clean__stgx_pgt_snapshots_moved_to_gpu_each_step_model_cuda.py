"""Look-alike: a PyTorch Geometric Temporal training loop keeps the snapshots on the CPU and moves `x`, `edge_index`, `edge_attr` and `y` to the GPU model at every step.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/59
"[question] getting started/basics": the user found that the examples run on the CPU and made them
use the GPU with `model.cuda()` and `model(snapshot.x.cuda(), snapshot.edge_index.cuda(),
snapshot.edge_attr.cuda())`, `snapshot.y.cuda()` inside the loop (asking only whether it could be
centralised); the signal iterator itself stays on the CPU. This runs correctly. Stand-in: the
introduction's RecurrentGCN with a dense DConv-style diffusion GRU cell (degree-normalised adjacency
built from the snapshot's edges on its own device); "meta" plays the GPU so that backward runs.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn.functional as F

def dense_adj(edge_index, edge_weight, num_nodes):
    nodes = torch.arange(num_nodes, device=edge_index.device)
    src = (edge_index[0].unsqueeze(1) == nodes).to(edge_weight.dtype)
    dst = (edge_index[1].unsqueeze(1) == nodes).to(edge_weight.dtype)
    return (src * edge_weight.unsqueeze(1)).t() @ dst

class DiffusionGRU(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.out_channels = out_channels
        self.lin_z = torch.nn.Linear(2 * (in_channels + out_channels), out_channels)
        self.lin_r = torch.nn.Linear(2 * (in_channels + out_channels), out_channels)
        self.lin_h = torch.nn.Linear(2 * (in_channels + out_channels), out_channels)

    def forward(self, X, edge_index, edge_weight, H=None):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels).to(X.device)
        A = dense_adj(edge_index, edge_weight, X.shape[0])
        P = A / A.sum(1, keepdim=True).clamp(min=1e-6)
        def diffuse(Z):
            return torch.cat([Z, P @ Z], dim=-1)
        XH = torch.cat([X, H], dim=-1)
        Z = torch.sigmoid(self.lin_z(diffuse(XH)))
        R = torch.sigmoid(self.lin_r(diffuse(XH)))
        H_tilde = torch.tanh(self.lin_h(diffuse(torch.cat([X, H * R], dim=-1))))
        return Z * H + (1 - Z) * H_tilde

class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super().__init__()
        self.recurrent = DiffusionGRU(node_features, 32)
        self.linear = torch.nn.Linear(32, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        h = F.relu(h)
        return self.linear(h)

num_nodes = 20
src = torch.arange(num_nodes)
edge_index = torch.cat([torch.stack([src, (src + 1) % num_nodes]), torch.stack([(src + 1) % num_nodes, src])], 1)
edge_attr = torch.rand(edge_index.size(1))
train_dataset = [SimpleNamespace(x=torch.randn(num_nodes, 4), edge_index=edge_index,
                                 edge_attr=edge_attr, y=torch.randn(num_nodes, 1)) for _ in range(5)]

model = RecurrentGCN(node_features = 4)
model.to("meta")
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
model.train()
'''
CELL = '''
for epoch in range(2):
    cost = 0
    for time, snapshot in enumerate(train_dataset):
        y_hat = model(snapshot.x.to("meta"), snapshot.edge_index.to("meta"), snapshot.edge_attr.to("meta"))
        cost = cost + torch.mean((y_hat-snapshot.y.to("meta"))**2)
    cost = cost / (time+1)
    cost.backward()
    optimizer.step()
    optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
