"""A GCN's position weighting builds its weights with torch.tensor() from numpy arithmetic (float64).

Source: https://github.com/Xillv/Code-for-AEGCN-Glove/issues/3
`hidden = torch.matmul(text, self.weight)` raised "expected scalar type Double but found Float":
position_weight() fills Python lists with numpy float64 values and calls `torch.tensor(weight)`,
so `weight * x` promotes the features to float64 before the float32 graph convolution. The
maintainer: "the data type of text and self.weight must be the same". Stand-in: the weighting and
one graph convolution.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.1)

    def forward(self, text, adj):
        hidden = torch.matmul(text, self.weight)
        return torch.matmul(adj, hidden) / (adj.sum(dim=2, keepdim=True) + 1)

class AEGCN(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.gc1 = GraphConvolution(hidden, hidden)

    def position_weight(self, x, aspect_start, aspect_end):
        text_len = np.array([x.shape[1]] * x.shape[0])
        weight = []
        for i in range(x.shape[0]):
            context_len = text_len[i] - (aspect_end - aspect_start + 1)
            weight.append([1 - abs(j - aspect_start) / context_len for j in range(x.shape[1])])
        weight = torch.tensor(weight).unsqueeze(2)
        return weight * x

    def forward(self, text_out, adj):
        return self.gc1(self.position_weight(text_out, 2, 3), adj)

model = AEGCN()
text_out = torch.randn(2, 6, 16)
adj = torch.ones(2, 6, 6)
'''
CELL = '''
x = model(text_out, adj)
'''
EXPECT_ERROR = "expected m1 and m2 to have the same dtype"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "weight = torch.tensor(weight).unsqueeze(2)",
    "weight = torch.tensor(weight, dtype=x.dtype).unsqueeze(2)",
)
CLEAN = False
