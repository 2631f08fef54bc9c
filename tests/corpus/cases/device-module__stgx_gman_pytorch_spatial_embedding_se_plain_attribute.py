"""GMAN-PyTorch on a GPU: the spatial embedding `SE` passed to the model's constructor is a plain tensor attribute that `model.to(device)` leaves on the CPU.

Source: https://github.com/VincLee8188/GMAN-PyTorch/issues/6
The maintainer explained how to run GMAN-PyTorch on a GPU: set `device`, call `model.to(device)` and
move `X`, `TE` and `label` of every batch with `.to(device)`. A user who did exactly that got
"RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the
same": `GMAN.__init__` stores `self.SE = SE` (the node2vec spatial embedding loaded by `load_data`)
as an ordinary attribute, and `forward` feeds it to `STEmbedding`'s first FC layer; it has to be
moved too (or registered as a buffer). Stand-in: GMAN reduced to the input FC, the spatial part of
STEmbedding, one spatial-attention block and the output FC, with nn.Linear for GMAN's 1x1 convs.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F

class FC(nn.Module):
    def __init__(self, input_dims, units, activations):
        super().__init__()
        self.lins = nn.ModuleList([nn.Linear(i, u) for i, u in zip(input_dims, units)])
        self.activations = activations

    def forward(self, x):
        for lin, act in zip(self.lins, self.activations):
            x = lin(x)
            if act is not None:
                x = act(x)
        return x

class STEmbedding(nn.Module):
    def __init__(self, D):
        super().__init__()
        self.FC_se = FC(input_dims=[D, D], units=[D, D], activations=[F.relu, None])

    def forward(self, SE, TE):
        SE = SE.unsqueeze(0).unsqueeze(0)
        SE = self.FC_se(SE)
        return SE.expand(TE.shape[0], TE.shape[1], -1, -1)

class spatialAttention(nn.Module):
    def __init__(self, K, d):
        super().__init__()
        D = K * d
        self.d, self.K = d, K
        self.FC_q = FC([2 * D], [D], [F.relu])
        self.FC_k = FC([2 * D], [D], [F.relu])
        self.FC_v = FC([2 * D], [D], [F.relu])
        self.FC = FC([D], [D], [F.relu])

    def forward(self, X, STE):
        batch_size = X.shape[0]
        X = torch.cat((X, STE), dim=-1)
        query = torch.cat(torch.split(self.FC_q(X), self.K, dim=-1), dim=0)
        key = torch.cat(torch.split(self.FC_k(X), self.K, dim=-1), dim=0)
        value = torch.cat(torch.split(self.FC_v(X), self.K, dim=-1), dim=0)
        attention = F.softmax(torch.matmul(query, key.transpose(2, 3)) / (self.d ** 0.5), dim=-1)
        X = torch.cat(torch.split(torch.matmul(attention, value), batch_size, dim=0), dim=-1)
        return self.FC(X)

class GMAN(nn.Module):
    def __init__(self, SE, args, bn_decay):
        super().__init__()
        D = args.K * args.d
        self.num_his = args.num_his
        self.SE = SE
        self.STEmbedding = STEmbedding(D)
        self.STAttBlock_1 = nn.ModuleList([spatialAttention(args.K, args.d) for _ in range(args.L)])
        self.FC_1 = FC(input_dims=[1, D], units=[D, D], activations=[F.relu, None])
        self.FC_2 = FC(input_dims=[D, D], units=[D, 1], activations=[F.relu, None])

    def forward(self, X, TE):
        X = torch.unsqueeze(X, -1)
        X = self.FC_1(X)
        STE = self.STEmbedding(self.SE, TE)
        STE_his = STE[:, :self.num_his]
        for net in self.STAttBlock_1:
            X = X + net(X, STE_his)
        X = self.FC_2(X)
        return torch.squeeze(X, 3)

args = SimpleNamespace(L=1, K=4, d=4, num_his=12, num_pred=12)
num_vertex = 20
SE = torch.randn(num_vertex, args.K * args.d)          # loaded from SE(PeMS).txt by load_data
device = torch.device("cuda:0" if True else "cpu")
model = GMAN(SE, args, bn_decay=0.1)
model.to(device)

trainX = torch.randn(8, args.num_his, num_vertex)
trainTE = torch.randint(0, 288, (8, args.num_his + args.num_pred, 2)).float()
start_idx, end_idx = 0, 4
X = trainX[start_idx: end_idx].to(device)
TE = trainTE[start_idx: end_idx].to(device)
'''
CELL = '''
with torch.no_grad():
    pred = model(X, TE)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["model.SE"]
FIX = "namespace"
REFERENCE_FIX = '''
model.SE = model.SE.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
