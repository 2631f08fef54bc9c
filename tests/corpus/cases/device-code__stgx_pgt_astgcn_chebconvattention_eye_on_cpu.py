"""PyTorch Geometric Temporal's ASTGCN ChebConvAttention multiplies the GPU spatial attention by `torch.eye(num_nodes)` made on the CPU.

Source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/46
"Not all tests pass on GPU environment": on a GPU machine `test_astgcn` and `test_mstgcn` failed with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
With the layer, `x`, `edge_index` and the attention on the GPU, ChebConvAttention.forward still did
`TAx_0 = torch.matmul((torch.eye(num_nodes)*spatial_attention).permute(0,2,1), x)`; the fix (PR #47,
"astgcn and mstgcn device fixed") made it `torch.eye(num_nodes).to(edge_index.device)`. Stand-in: the
layer with dense message passing (a symmetric-normalised scaled Laplacian built from a dense
adjacency instead of `__norm__`/`propagate` over edge_index).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch.nn import Parameter

class ChebConvAttention(torch.nn.Module):
    def __init__(self, in_channels, out_channels, K, normalization="sym", bias=True):
        super().__init__()
        self._normalization = normalization
        self._weight = Parameter(torch.randn(K, in_channels, out_channels) / math.sqrt(in_channels))
        self._bias = Parameter(torch.zeros(out_channels)) if bias else None

    def __norm__(self, adj, lambda_max):
        deg = adj.sum(1).clamp(min=1)
        norm = -adj / torch.sqrt(deg[:, None] * deg[None, :])       # L_sym - I
        return (2.0 / lambda_max) * norm

    def forward(self, x, adj, spatial_attention, lambda_max=None):
        if lambda_max is None:
            lambda_max = torch.tensor(2.0, dtype=x.dtype, device=x.device)
        norm = self.__norm__(adj, lambda_max)
        Att_norm = norm * spatial_attention
        num_nodes = x.size(1)
        TAx_0 = torch.matmul((torch.eye(num_nodes)*spatial_attention).permute(0,2,1),x)
        out = torch.matmul(TAx_0, self._weight[0])
        if self._weight.size(0) > 1:
            TAx_1 = torch.matmul(Att_norm.permute(0, 2, 1), TAx_0)
            out = out + torch.matmul(TAx_1, self._weight[1])
        for k in range(2, self._weight.size(0)):
            TAx_2 = 2. * torch.matmul(norm.t(), TAx_1) - TAx_0
            out = out + torch.matmul(TAx_2, self._weight[k])
            TAx_0, TAx_1 = TAx_1, TAx_2
        if self._bias is not None:
            out = out + self._bias
        return out

device = torch.device("cuda:0")
in_channels, out_channels = (16, 32)
batch_size = 3
num_nodes = 4
adj = torch.tensor([[0., 1., 1., 1.], [1., 0., 0., 0.], [1., 0., 0., 0.], [1., 0., 0., 0.]]).to(device)
x = torch.randn((batch_size, num_nodes, in_channels)).to(device)
attention = torch.nn.functional.softmax(torch.rand((batch_size, num_nodes, num_nodes)), dim=1).to(device)

conv = ChebConvAttention(in_channels, out_channels, K=3, normalization='sym').to(device)
'''
CELL = '''
with torch.no_grad():
    out1 = conv(x, adj, attention)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["conv"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "TAx_0 = torch.matmul((torch.eye(num_nodes)*spatial_attention).permute(0,2,1),x)",
    "TAx_0 = torch.matmul((torch.eye(num_nodes).to(adj.device)*spatial_attention).permute(0,2,1),x)",
)
CLEAN = False
