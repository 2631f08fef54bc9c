"""Look-alike: Graph WaveNet keeps its diffusion `supports` as a plain Python list of adjacency tensors, created directly on the training device before the model is built.

Source: https://github.com/nnzhan/Graph-WaveNet/blob/master/train.py
`supports = [torch.tensor(i).to(device) for i in adj_mx]` is built from the pickled double-transition
matrices, handed to `gwnet(device, num_nodes, dropout, supports=supports, ...)`, which stores
`self.supports = supports` (a list, not buffers) next to the adaptive `nodevec1/nodevec2`
Parameters; each batch is `torch.Tensor(x).to(device).transpose(1, 3)`. Nothing is left on the CPU.
Stand-in: the gwnet diffusion graph convolution (`nconv` einsum), the adaptive adjacency and one
gated dilated TCN layer; the adjacency is random instead of METR-LA's.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class nconv(nn.Module):
    def forward(self, x, A):
        x = torch.einsum('ncvl,vw->ncwl', (x, A))
        return x.contiguous()

class gcn(nn.Module):
    def __init__(self, c_in, c_out, dropout, support_len=3, order=2):
        super().__init__()
        self.nconv = nconv()
        self.mlp = nn.Conv2d((order * support_len + 1) * c_in, c_out, kernel_size=(1, 1))
        self.dropout, self.order = dropout, order

    def forward(self, x, support):
        out = [x]
        for a in support:
            x1 = self.nconv(x, a)
            out.append(x1)
            for k in range(2, self.order + 1):
                x2 = self.nconv(x1, a)
                out.append(x2)
                x1 = x2
        h = torch.cat(out, dim=1)
        h = self.mlp(h)
        return F.dropout(h, self.dropout, training=self.training)

class gwnet(nn.Module):
    def __init__(self, device, num_nodes, dropout=0.3, supports=None, in_dim=2, out_dim=12,
                 residual_channels=16, dilation_channels=16, skip_channels=32, end_channels=64):
        super().__init__()
        self.supports = supports
        self.start_conv = nn.Conv2d(in_dim, residual_channels, kernel_size=(1, 1))
        self.nodevec1 = nn.Parameter(torch.randn(num_nodes, 10), requires_grad=True)
        self.nodevec2 = nn.Parameter(torch.randn(10, num_nodes), requires_grad=True)
        self.filter_conv = nn.Conv2d(residual_channels, dilation_channels, kernel_size=(1, 2))
        self.gate_conv = nn.Conv2d(residual_channels, dilation_channels, kernel_size=(1, 2))
        self.gconv = gcn(dilation_channels, residual_channels, dropout, support_len=len(supports) + 1)
        self.skip_conv = nn.Conv2d(dilation_channels, skip_channels, kernel_size=(1, 1))
        self.end_conv_1 = nn.Conv2d(skip_channels, end_channels, kernel_size=(1, 1))
        self.end_conv_2 = nn.Conv2d(end_channels, out_dim, kernel_size=(1, 1))

    def forward(self, input):
        x = self.start_conv(input)
        adp = F.softmax(F.relu(torch.mm(self.nodevec1, self.nodevec2)), dim=1)
        new_supports = self.supports + [adp]
        filter = torch.tanh(self.filter_conv(x))
        gate = torch.sigmoid(self.gate_conv(x))
        x = filter * gate
        s = self.skip_conv(x)
        x = self.gconv(x, new_supports)
        x = F.relu(s.sum(-1, keepdim=True))
        x = F.relu(self.end_conv_1(x))
        return self.end_conv_2(x)

num_nodes = 15
A = (np.random.rand(num_nodes, num_nodes) > 0.8).astype(np.float32)
def asym_adj(adj):
    rowsum = adj.sum(1)
    d_inv = np.power(rowsum, -1, where=rowsum > 0).flatten()
    d_inv[rowsum == 0] = 0.
    return (np.diag(d_inv) @ adj).astype(np.float32)
adj_mx = [asym_adj(A), asym_adj(A.T)]                     # adjtype='doubletransition'

device = torch.device("cuda:0")
supports = [torch.tensor(i).to(device) for i in adj_mx]
model = gwnet(device, num_nodes, 0.3, supports=supports)
model.to(device)
x = np.random.randn(8, 12, num_nodes, 2).astype(np.float32)
'''
CELL = '''
model.eval()
with torch.no_grad():
    testx = torch.Tensor(x).to(device).transpose(1, 3)
    output = model(testx)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
