"""PyG DenseGraphConv given an integer (torch.long) adjacency tensor and float node features.

Source: https://github.com/pyg-team/pytorch_geometric/issues/2330
"DenseGraphConv fails with adj.dtype == torch.long and x.dtype == torch.float": `c(x, a)` with
`a = torch.ones((3,4,4), dtype=torch.long)` raised "expected scalar type Long but found Float" at
`out = self.lin_rel(torch.matmul(adj, x))`. Maintainer: "This is intended. adj and x need to be of
the same type." Stand-in: DenseGraphConv's forward (sum aggregation) as in PyG 1.6.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class DenseGraphConv(nn.Module):
    def __init__(self, in_channels, out_channels, aggr="add"):
        super().__init__()
        self.aggr = aggr
        self.lin_rel = nn.Linear(in_channels, out_channels)
        self.lin_root = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, adj, mask=None):
        B, N, _ = adj.size()
        out = self.lin_rel(torch.matmul(adj, x))
        if self.aggr == "mean":
            out = out / adj.sum(dim=-1, keepdim=True).clamp(min=1)
        out = out + self.lin_root(x)
        return out

c = DenseGraphConv(5, 5)
x = torch.ones((3, 4, 5), dtype=torch.float)
a = torch.ones((3, 4, 4), dtype=torch.long)
'''
CELL = '''
out = c(x, a)
'''
EXPECT_ERROR = ("expected scalar type Long but found Float", "expected m1 and m2 to have the same dtype")
CULPRITS = ["a"]
FIX = "namespace"
REFERENCE_FIX = '''
a = a.float()
'''
REFERENCE_EDIT = None
CLEAN = False
