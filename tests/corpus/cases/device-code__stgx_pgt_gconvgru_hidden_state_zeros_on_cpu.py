"""PyTorch Geometric Temporal's GConvGRU creates its initial hidden state with `torch.zeros` on the CPU while the model and snapshots are on the GPU.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/20
"GConvGRU error using CUDA": the user moved the RecurrentGCN and the snapshots to the GPU and called
the layer without an initial `H`; `_set_hidden_state` did `H = torch.zeros(X.shape[0],
self.out_channels)` regardless of the input's device, so the first Chebyshev graph convolution of
the hidden state mixed cuda:0 and cpu. The fix proposed in the thread (and applied to all recurrent
layers) is `torch.zeros(...).to(X.device)`. Stand-in: GConvGRU with a dense Chebyshev convolution
over a precomputed scaled Laplacian `L_hat` (instead of PyG's ChebConv on edge_index/edge_weight).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F

class ChebConv(torch.nn.Module):
    """Dense stand-in for torch_geometric.nn.ChebConv: sum_k T_k(L_hat) X W_k."""
    def __init__(self, in_channels, out_channels, K):
        super().__init__()
        self.lins = torch.nn.ModuleList([torch.nn.Linear(in_channels, out_channels, bias=False)
                                         for _ in range(K)])
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, L_hat):
        Tx_0 = x
        out = self.lins[0](Tx_0)
        if len(self.lins) > 1:
            Tx_1 = L_hat @ x
            out = out + self.lins[1](Tx_1)
            for lin in self.lins[2:]:
                Tx_2 = 2.0 * (L_hat @ Tx_1) - Tx_0
                out = out + lin(Tx_2)
                Tx_0, Tx_1 = Tx_1, Tx_2
        return out + self.bias

class GConvGRU(torch.nn.Module):
    def __init__(self, in_channels, out_channels, K):
        super().__init__()
        self.out_channels = out_channels
        self.conv_x_z = ChebConv(in_channels, out_channels, K)
        self.conv_h_z = ChebConv(out_channels, out_channels, K)
        self.conv_x_r = ChebConv(in_channels, out_channels, K)
        self.conv_h_r = ChebConv(out_channels, out_channels, K)
        self.conv_x_h = ChebConv(in_channels, out_channels, K)
        self.conv_h_h = ChebConv(out_channels, out_channels, K)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels)
        return H

    def forward(self, X, L_hat, H=None):
        H = self._set_hidden_state(X, H)
        Z = torch.sigmoid(self.conv_x_z(X, L_hat) + self.conv_h_z(H, L_hat))
        R = torch.sigmoid(self.conv_x_r(X, L_hat) + self.conv_h_r(H, L_hat))
        H_tilde = torch.tanh(self.conv_x_h(X, L_hat) + self.conv_h_h(H * R, L_hat))
        return Z * H + (1 - Z) * H_tilde

class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features, filters=32):
        super().__init__()
        self.recurrent = GConvGRU(node_features, filters, 2)
        self.linear = torch.nn.Linear(filters, 1)

    def forward(self, x, L_hat):
        h = self.recurrent(x, L_hat)
        h = F.relu(h)
        return self.linear(h)

num_nodes, node_features = 20, 4
A = (torch.rand(num_nodes, num_nodes) > 0.8).float()
A = ((A + A.t()) > 0).float()
deg = A.sum(1).clamp(min=1)
L_hat = -A / torch.sqrt(deg[:, None] * deg[None, :])      # scaled Laplacian, lambda_max = 2

device = torch.device("cuda:0")
model = RecurrentGCN(node_features=node_features).to(device)
x = torch.randn(num_nodes, node_features).to(device)
L_hat = L_hat.to(device)
'''
CELL = '''
with torch.no_grad():
    y_hat = model(x, L_hat)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.recurrent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "H = torch.zeros(X.shape[0], self.out_channels)",
    "H = torch.zeros(X.shape[0], self.out_channels).to(X.device)",
)
CLEAN = False
