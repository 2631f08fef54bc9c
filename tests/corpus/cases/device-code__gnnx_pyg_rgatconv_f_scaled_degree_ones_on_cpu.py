"""PyG RGATConv with mod='f-scaled' on the GPU: the degree `ones` tensor is created on the CPU inside `message`.

Source: https://github.com/pyg-team/pytorch_geometric/issues/5163
"When using RGATConv, set mod = 'f-scaled', tensor in different devices error will appear": the user's
model (`self.conv = RGATConv(in_channels, out_channels, 14, num_bases=8, mod='f-scaled', concat=False,
heads=8)`) fails in `rgat_conv.py` `message` at `degree = scatter_add(ones, index, dim_size=size_i)`
with "Expected all tensors to be on the same device"; the same layer without `mod` works. Fixed by
rusty1s in PR #5187 ("Fit `RGATConv` different device error"), which builds the tensor with
`alpha.new_ones(index.size())`. Stand-in: RGATConv reduced to basis decomposition, additive
self-attention, across-relation softmax and the 'f-scaled' branch, with a torch_scatter-style
`scatter_add` (output allocated on `src`'s device, then `scatter_add_`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn import Parameter

def scatter_add(src, index, dim=0, dim_size=None):
    # torch_scatter.scatter_sum: out is allocated like `src`
    size = list(src.size())
    size[dim] = dim_size
    out = torch.zeros(size, dtype=src.dtype, device=src.device)
    return out.scatter_add_(dim, index, src)

def softmax(src, index, num_nodes):
    idx = index.view(-1, 1).expand_as(src)
    src_max = torch.zeros(num_nodes, src.size(1), device=src.device).scatter_reduce(
        0, idx, src, reduce="amax", include_self=False)
    out = (src - src_max.index_select(0, index)).exp()
    out_sum = torch.zeros(num_nodes, src.size(1), device=src.device).scatter_add_(0, idx, out)
    return out / (out_sum.index_select(0, index) + 1e-16)

class RGATConv(nn.Module):
    def __init__(self, in_channels, out_channels, num_relations, num_bases=None,
                 mod=None, heads=1, concat=True, negative_slope=0.2):
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.num_relations, self.num_bases = num_relations, num_bases
        self.mod, self.heads, self.concat = mod, heads, concat
        self.negative_slope = negative_slope
        self.att = Parameter(torch.randn(num_relations, num_bases) * 0.1)
        self.basis = Parameter(torch.randn(num_bases, in_channels, heads * out_channels) * 0.1)
        self.q = Parameter(torch.randn(heads * out_channels, heads) * 0.1)
        self.k = Parameter(torch.randn(heads * out_channels, heads) * 0.1)
        self.bias = Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index, edge_type):
        x_j = x.index_select(0, edge_index[0])
        x_i = x.index_select(0, edge_index[1])
        msg = self.message(x_i, x_j, edge_type, edge_index[1], x.size(0))
        out = torch.zeros(x.size(0), self.heads, self.out_channels, device=msg.device)
        out = out.index_add_(0, edge_index[1], msg)
        out = out.mean(dim=1) if not self.concat else out.view(-1, self.heads * self.out_channels)
        return out + self.bias

    def message(self, x_i, x_j, edge_type, index, size_i):
        w = torch.matmul(self.att, self.basis.view(self.num_bases, -1))
        w = w.view(self.num_relations, self.in_channels, self.heads * self.out_channels)
        w = torch.index_select(w, 0, edge_type)
        outi = torch.bmm(x_i.unsqueeze(1), w).squeeze(-2)
        outj = torch.bmm(x_j.unsqueeze(1), w).squeeze(-2)
        qi = torch.matmul(outi, self.q)
        kj = torch.matmul(outj, self.k)
        alpha = F.leaky_relu(torch.add(qi, kj), self.negative_slope)
        alpha = softmax(alpha, index, size_i)
        if self.mod == "f-scaled":
            ones = torch.ones(index.size())
            degree = scatter_add(ones, index, dim_size=size_i).index_select(0, index).unsqueeze(-1)
            alpha = alpha * degree
        return alpha.view(-1, self.heads, 1) * outj.view(-1, self.heads, self.out_channels)

class Net(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = RGATConv(in_channels, out_channels, 14, num_bases=8, mod='f-scaled',
                             concat=False, heads=8)

    def forward(self, x, edge_index, edge_type):
        return self.conv(x, edge_index, edge_type)

torch.manual_seed(0)
device = torch.device("cuda:0")
num_nodes, num_edges = 30, 90
x = torch.randn(num_nodes, 16).to(device)
edge_index = torch.randint(0, num_nodes, (2, num_edges)).to(device)
edge_type = torch.randint(0, 14, (num_edges,)).to(device)
model = Net(16, 32).to(device)
'''
CELL = '''
with torch.no_grad():
    out = model(x, edge_index, edge_type)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.conv"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ones = torch.ones(index.size())", "ones = alpha.new_ones(index.size())")
CLEAN = False
