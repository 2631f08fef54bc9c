"""PyG `GCNConv(in_channels=-1, ...)` called on CUDA inputs without moving the conv: its lazy weight materialises on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/issues/9479
"The GCNConv module fails when the input tensor is on a CUDA device": the MRE builds
`conv = GCNConv(in_channels=-1, out_channels=128)`, puts `input_t` and `edges_t` on 'cuda' and
calls `conv(input_t, edges_t)`; it fails in `x = self.lin(x)`. The lazy `Linear` materialises its
weight where the module lives (the CPU) - the conv itself was never moved. Stand-in: a GCNConv with
PyG's lazy `Linear` (an `nn.LazyLinear` without bias), its own bias, and sum aggregation over the
edge list with the symmetric degree normalisation. "meta" plays the GPU (lazy modules cannot be
built under FakeTensorMode).
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn, tensor

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        if in_channels == -1:
            self.lin = nn.LazyLinear(out_channels, bias=False)
        else:
            self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n, device=edge_index.device).repeat(2, 1)
        edge_index = torch.cat([edge_index, loops], dim=1)
        row, col = edge_index.unbind(0)
        deg = torch.zeros(n, device=x.device).scatter_add_(0, col, torch.ones(col.size(0), device=x.device))
        norm = deg.pow(-0.5)
        x = self.lin(x)
        msg = x.index_select(0, row) * (norm.index_select(0, row) * norm.index_select(0, col)).unsqueeze(-1)
        out = torch.zeros_like(x).index_add_(0, col, msg)
        return out + self.bias

DEVICE = "meta"        # the GPU
conv = GCNConv(in_channels=-1, out_channels=128)
input_t = torch.rand(10, 128, device=DEVICE)
edges_t = tensor([[1, 2, 3], [2, 3, 4]], device=DEVICE)
'''
CELL = '''
output_t = conv(input_t, edges_t)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["conv"]
FIX = "namespace"
REFERENCE_FIX = '''
conv = conv.to(DEVICE)
'''
REFERENCE_EDIT = None
CLEAN = False
