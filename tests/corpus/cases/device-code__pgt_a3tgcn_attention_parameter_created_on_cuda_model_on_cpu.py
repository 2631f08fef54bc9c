"""PyTorch Geometric Temporal's A3TGCN puts its attention parameter on the GPU whenever one exists, while the example runs on the CPU.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/259
Running `a3tgcn_example.py` on a machine with a GPU fails in A3TGCN.forward at
`H_accum = H_accum + probs[period] * self._base_tgcn(...)` with "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu!". A later comment found the cause:
`_setup_layers` does `device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')` and creates
`self._attention = torch.nn.Parameter(torch.empty(self.periods, device=device))`, while the example
keeps the model and the snapshots on the CPU. Stand-in: A3TGCN/TGCN as in the library over a small
GCNConv, the example's RecurrentGCN and training loop on random snapshots; "meta" plays the GPU
that `torch.cuda.is_available()` finds.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn.functional as F

class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = torch.nn.Linear(in_channels, out_channels, bias=False)
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index, edge_weight=None):
        n = x.size(0)
        if edge_weight is None:
            edge_weight = torch.ones(edge_index.size(1), device=x.device)
        row, col = edge_index.unbind(0)
        deg = torch.zeros(n, device=x.device).index_add_(0, col, edge_weight) + 1.0
        norm = deg.pow(-0.5).index_select(0, row) * edge_weight * deg.pow(-0.5).index_select(0, col)
        x = self.lin(x)
        out = x / deg.unsqueeze(-1) + torch.zeros_like(x).index_add_(0, col, x.index_select(0, row) * norm.unsqueeze(-1))
        return out + self.bias

class TGCN(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.conv_z = GCNConv(in_channels, out_channels)
        self.linear_z = torch.nn.Linear(2 * out_channels, out_channels)
        self.conv_r = GCNConv(in_channels, out_channels)
        self.linear_r = torch.nn.Linear(2 * out_channels, out_channels)
        self.conv_h = GCNConv(in_channels, out_channels)
        self.linear_h = torch.nn.Linear(2 * out_channels, out_channels)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels).to(X.device)
        return H

    def forward(self, X, edge_index, edge_weight=None, H=None):
        H = self._set_hidden_state(X, H)
        Z = torch.sigmoid(self.linear_z(torch.cat([self.conv_z(X, edge_index, edge_weight), H], axis=1)))
        R = torch.sigmoid(self.linear_r(torch.cat([self.conv_r(X, edge_index, edge_weight), H], axis=1)))
        H_tilde = torch.tanh(self.linear_h(torch.cat([self.conv_h(X, edge_index, edge_weight), H * R], axis=1)))
        return Z * H + (1 - Z) * H_tilde

class A3TGCN(torch.nn.Module):
    def __init__(self, in_channels, out_channels, periods):
        super().__init__()
        self.in_channels, self.out_channels, self.periods = in_channels, out_channels, periods
        self._setup_layers()

    def _setup_layers(self):
        self._base_tgcn = TGCN(in_channels=self.in_channels, out_channels=self.out_channels)
        device = torch.device("meta")     # torch.device('cuda' if torch.cuda.is_available() else 'cpu'): a GPU is present
        self._attention = torch.nn.Parameter(torch.empty(self.periods, device=device))
        torch.nn.init.uniform_(self._attention)

    def forward(self, X, edge_index, edge_weight=None, H=None):
        H_accum = 0
        probs = torch.nn.functional.softmax(self._attention, dim=0)
        for period in range(self.periods):
            H_accum = H_accum + probs[period] * self._base_tgcn(X[:, :, period], edge_index, edge_weight, H)
        return H_accum

class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features, periods):
        super(RecurrentGCN, self).__init__()
        self.recurrent = A3TGCN(node_features, 32, periods)
        self.linear = torch.nn.Linear(32, periods)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x.view(x.shape[0], 1, x.shape[1]), edge_index, edge_weight)
        h = F.relu(h)
        h = self.linear(h)
        return h

num_nodes, periods = 20, 8
edge_index = torch.randint(0, num_nodes, (2, 60))
train_dataset = [SimpleNamespace(x=torch.randn(num_nodes, periods), edge_index=edge_index,
                                 edge_attr=torch.rand(60), y=torch.randn(num_nodes, periods)) for _ in range(3)]
model = RecurrentGCN(node_features=1, periods=periods)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
'''
CELL = '''
model.train()
for epoch in range(2):
    cost = 0
    for time, snapshot in enumerate(train_dataset):
        y_hat = model(snapshot.x, snapshot.edge_index, snapshot.edge_attr)
        cost = cost + torch.mean((y_hat - snapshot.y) ** 2)
    cost = cost / (time + 1)
    cost.backward()
    optimizer.step()
    optimizer.zero_grad()
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.recurrent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self._attention = torch.nn.Parameter(torch.empty(self.periods, device=device))",
    "self._attention = torch.nn.Parameter(torch.empty(self.periods))",
)
CLEAN = False
