"""Look-alike: BasicTS's STGCN keeps the graph shift operator `gso` as a plain CPU tensor attribute and ChebGraphConv moves it to the input's device in forward.

Source: https://github.com/GestaltCogTeam/BasicTS/blob/master/basicts/archs/arch_zoo/stgcn_arch/stgcn_layers.py
`GraphConvLayer` stores `self.gso = gso` (a tensor built from the adjacency on the CPU, not a
buffer), so `model.to(device)` leaves it on the CPU, but `ChebGraphConv.forward` starts with
`gso = gso.to(x.device)` before the Chebyshev recursion `torch.einsum('hi,btij->bthj', gso, x)`.
The model runs on the GPU. Stand-in: the STGCN blocks (GLU temporal conv, Chebyshev graph conv
layer, output conv) with small sizes, as in the library.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.init as init

class TemporalConvLayer(nn.Module):
    def __init__(self, Kt, c_in, c_out):
        super().__init__()
        self.c_out, self.Kt = c_out, Kt
        self.align = nn.Conv2d(c_in, c_out, (1, 1))
        self.causal_conv = nn.Conv2d(c_in, 2 * c_out, (Kt, 1))

    def forward(self, x):
        x_in = self.align(x)[:, :, self.Kt - 1:, :]
        x_causal_conv = self.causal_conv(x)
        x_p = x_causal_conv[:, : self.c_out, :, :]
        x_q = x_causal_conv[:, -self.c_out:, :, :]
        return torch.mul((x_p + x_in), torch.sigmoid(x_q))

class ChebGraphConv(nn.Module):
    def __init__(self, c_in, c_out, Ks, bias):
        super().__init__()
        self.Ks = Ks
        self.weight = nn.Parameter(torch.FloatTensor(Ks, c_in, c_out))
        self.bias = nn.Parameter(torch.FloatTensor(c_out)) if bias else None
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, x, gso):
        x = torch.permute(x, (0, 2, 3, 1))
        gso = gso.to(x.device)
        x_list = [x, torch.einsum('hi,btij->bthj', gso, x)]
        for k in range(2, self.Ks):
            x_list.append(torch.einsum('hi,btij->bthj', 2 * gso, x_list[k - 1]) - x_list[k - 2])
        x = torch.stack(x_list, dim=2)
        cheb_graph_conv = torch.einsum('btkhi,kij->bthj', x, self.weight)
        return cheb_graph_conv if self.bias is None else torch.add(cheb_graph_conv, self.bias)

class GraphConvLayer(nn.Module):
    def __init__(self, c_in, c_out, Ks, gso, bias):
        super().__init__()
        self.align = nn.Conv2d(c_in, c_out, (1, 1))
        self.gso = gso
        self.cheb_graph_conv = ChebGraphConv(c_out, c_out, Ks, bias)

    def forward(self, x):
        x_gc_in = self.align(x)
        x_gc = self.cheb_graph_conv(x_gc_in, self.gso).permute(0, 3, 1, 2)
        return torch.add(x_gc, x_gc_in)

class STGCNChebGraphConv(nn.Module):
    def __init__(self, Kt, Ks, blocks, T, n_vertex, gso, bias=True):
        super().__init__()
        self.tmp_conv1 = TemporalConvLayer(Kt, blocks[0], blocks[1])
        self.graph_conv = GraphConvLayer(blocks[1], blocks[2], Ks, gso, bias)
        self.tmp_conv2 = TemporalConvLayer(Kt, blocks[2], blocks[3])
        self.output = nn.Conv2d(blocks[3], 1, (T - 2 * (Kt - 1), 1))

    def forward(self, history_data):
        x = history_data.permute(0, 3, 1, 2).contiguous()
        x = torch.relu(self.graph_conv(self.tmp_conv1(x)))
        x = self.tmp_conv2(x)
        return self.output(x).transpose(2, 3)

n_vertex = 10
adj = (torch.rand(n_vertex, n_vertex) > 0.7).float()
adj = ((adj + adj.t()) > 0).float()
deg = adj.sum(1).clamp(min=1)
gso = torch.eye(n_vertex) - adj / torch.sqrt(deg[:, None] * deg[None, :])   # sym_norm_lap
gso = gso - torch.eye(n_vertex)                                              # cheb gso, lambda_max ~ 2

device = torch.device("cuda:0")
model = STGCNChebGraphConv(Kt=3, Ks=3, blocks=[1, 16, 16, 16], T=12, n_vertex=n_vertex, gso=gso).to(device)
history_data = torch.randn(4, 12, n_vertex, 1, device=device)
'''
CELL = '''
with torch.no_grad():
    prediction = model(history_data)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
