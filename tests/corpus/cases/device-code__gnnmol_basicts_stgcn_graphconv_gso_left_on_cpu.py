"""BasicTS STGCN with `graph_conv_type="graph_conv"` on a GPU: the graph shift operator `gso` stays on the CPU.

Source: https://github.com/GestaltCogTeam/BasicTS/pull/53
"Fix bug: Moving the adj matrix to the same device as the model (STGCN GraphConv)": STGCN keeps the
normalised adjacency `gso` as a plain tensor attribute handed to every block, so `model.to(device)`
leaves it on the CPU. `ChebGraphConv.forward` already moved it (`gso = gso.to(x.device)`), the plain
`GraphConv.forward` did not and failed in `torch.einsum('hi,btij->bthj', gso, x)`. The merged fix adds
the same line to `GraphConv.forward`. Stand-in: BasicTS's STGCN blocks (GLU temporal conv, graph conv
layer, output block) with small sizes.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.init as init

class TemporalConvLayer(nn.Module):
    def __init__(self, Kt, c_in, c_out):
        super().__init__()
        self.c_out = c_out
        self.align = nn.Conv2d(c_in, c_out, (1, 1))
        self.causal_conv = nn.Conv2d(c_in, 2 * c_out, (Kt, 1))
        self.Kt = Kt

    def forward(self, x):
        x_in = self.align(x)[:, :, self.Kt - 1:, :]
        x_causal_conv = self.causal_conv(x)
        x_p = x_causal_conv[:, : self.c_out, :, :]
        x_q = x_causal_conv[:, -self.c_out:, :, :]
        return torch.mul((x_p + x_in), torch.sigmoid(x_q))   # GLU

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

class GraphConv(nn.Module):
    def __init__(self, c_in, c_out, bias):
        super(GraphConv, self).__init__()
        self.weight = nn.Parameter(torch.FloatTensor(c_in, c_out))
        self.bias = nn.Parameter(torch.FloatTensor(c_out)) if bias else None
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, x, gso):
        #bs, c_in, ts, n_vertex = x.shape
        x = torch.permute(x, (0, 2, 3, 1))

        first_mul = torch.einsum('hi,btij->bthj', gso, x)
        second_mul = torch.einsum('bthi,ij->bthj', first_mul, self.weight)

        if self.bias is not None:
            graph_conv = torch.add(second_mul, self.bias)
        else:
            graph_conv = second_mul
        return graph_conv

class GraphConvLayer(nn.Module):
    def __init__(self, graph_conv_type, c_in, c_out, Ks, gso, bias):
        super().__init__()
        self.graph_conv_type = graph_conv_type
        self.align = nn.Conv2d(c_in, c_out, (1, 1))
        self.gso = gso
        if self.graph_conv_type == 'cheb_graph_conv':
            self.cheb_graph_conv = ChebGraphConv(c_out, c_out, Ks, bias)
        elif self.graph_conv_type == 'graph_conv':
            self.graph_conv = GraphConv(c_out, c_out, bias)

    def forward(self, x):
        x_gc_in = self.align(x)
        if self.graph_conv_type == 'cheb_graph_conv':
            x_gc = self.cheb_graph_conv(x_gc_in, self.gso)
        else:
            x_gc = self.graph_conv(x_gc_in, self.gso)
        x_gc = x_gc.permute(0, 3, 1, 2)
        return torch.add(x_gc, x_gc_in)

class STGCN(nn.Module):
    def __init__(self, Kt, Ks, blocks, T, n_vertex, graph_conv_type, gso, bias=True):
        super().__init__()
        self.tmp_conv1 = TemporalConvLayer(Kt, blocks[0], blocks[1])
        self.graph_conv = GraphConvLayer(graph_conv_type, blocks[1], blocks[2], Ks, gso, bias)
        self.tmp_conv2 = TemporalConvLayer(Kt, blocks[2], blocks[3])
        Ko = T - 2 * (Kt - 1)
        self.output = nn.Conv2d(blocks[3], 1, (Ko, 1))

    def forward(self, history_data):
        x = history_data.permute(0, 3, 1, 2).contiguous()   # B, C, L, N
        x = torch.relu(self.graph_conv(self.tmp_conv1(x)))
        x = self.tmp_conv2(x)
        return self.output(x).transpose(2, 3)

n_vertex = 10
adj = (torch.rand(n_vertex, n_vertex) > 0.7).float()
adj = adj + adj.t() + torch.eye(n_vertex)
deg = adj.sum(1)
gso = adj / torch.sqrt(deg[:, None] * deg[None, :])        # sym_norm_adj, kept as a plain tensor

device = torch.device("cuda:0")
model = STGCN(Kt=3, Ks=3, blocks=[1, 16, 16, 16], T=12, n_vertex=n_vertex,
              graph_conv_type="graph_conv", gso=gso)
model = model.to(device)
history_data = torch.randn(4, 12, n_vertex, 1, device=device)
'''
CELL = '''
with torch.no_grad():
    prediction = model(history_data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.graph_conv.gso"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        first_mul = torch.einsum('hi,btij->bthj', gso, x)",
    "        gso = gso.to(x.device)\n        first_mul = torch.einsum('hi,btij->bthj', gso, x)",
)
CLEAN = False
